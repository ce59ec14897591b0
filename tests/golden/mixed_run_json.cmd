run mixed.muster volley --dice 4,1,7 --explain --json
