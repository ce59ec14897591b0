prob bag24.muster last_rebel drawn=0 rebels=12 --trials 200000 --seed 7 --threads 4
