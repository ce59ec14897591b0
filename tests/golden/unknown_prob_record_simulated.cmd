prob unknown.muster volley --trials 3000 --seed 2
