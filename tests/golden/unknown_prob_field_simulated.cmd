prob unknown.muster volley --field lost --trials 3000 --seed 2
