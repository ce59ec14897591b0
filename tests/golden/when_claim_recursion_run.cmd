run claim_recursion.muster c
