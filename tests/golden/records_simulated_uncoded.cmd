prob records_simulated.muster share n=4 --trials 20000 --seed 5
