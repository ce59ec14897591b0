prob odds.muster bonus_roll --trials 3000 --seed 4 --threads 1
