dis mixed.muster volley
