prob odds.muster gappy --trials 3000 --seed 2 --threads 1
