prob odds.muster two_high --trials 3000 --seed 2 --threads 2
