prob faces_exact.muster worst --json
