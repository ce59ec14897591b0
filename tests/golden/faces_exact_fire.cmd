prob faces_exact.muster fire --json
