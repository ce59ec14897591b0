run unknown.muster volley --dice 5,6,2
