prob mixed.muster volley --json
