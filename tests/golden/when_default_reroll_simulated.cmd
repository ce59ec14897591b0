prob when.muster kept --trials 40000 --seed 1
