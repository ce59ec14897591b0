prob claim_recursion.muster r n=150 --max-depth 100
