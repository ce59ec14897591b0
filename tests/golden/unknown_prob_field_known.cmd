prob unknown.muster volley --field hits
