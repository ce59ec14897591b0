prob claim_recursion.muster r n=240
