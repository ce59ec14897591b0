run claim_recursion.muster c --max-depth 50
