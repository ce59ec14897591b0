prob odds.muster hits n=40 --budget 1000 --trials 100 --seed 1
