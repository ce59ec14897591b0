prob unknown.muster volley
