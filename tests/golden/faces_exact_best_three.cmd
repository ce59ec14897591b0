prob faces_exact.muster best_three --json
