prob when.muster asks_six --trials 20000 --seed 1
