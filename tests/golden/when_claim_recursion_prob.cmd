prob claim_recursion.muster c
