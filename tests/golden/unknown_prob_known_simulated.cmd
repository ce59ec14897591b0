prob unknown.muster volley --field hits --trials 3000 --seed 2
