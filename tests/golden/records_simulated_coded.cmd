prob records_simulated.muster volley n=3 --trials 20000 --seed 5
