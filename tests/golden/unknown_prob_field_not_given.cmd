prob unknown.muster volley --field lost
