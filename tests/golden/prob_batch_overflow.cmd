prob batch.muster rare_overflow k=9300000000000000 --seed 3 --trials 100000
