run shadow/volley.muster volley
