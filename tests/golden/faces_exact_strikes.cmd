prob faces_exact.muster strikes --json
