prob faces_exact.muster volley --json
