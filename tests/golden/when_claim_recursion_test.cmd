test claim_recursion.muster
