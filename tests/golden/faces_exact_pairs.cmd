prob faces_exact.muster pairs --json
