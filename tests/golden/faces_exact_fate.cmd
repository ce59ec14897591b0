prob faces_exact.muster fate --json
