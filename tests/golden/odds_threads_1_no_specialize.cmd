prob odds.muster hits n=12 --trials 20000 --seed 3 --threads 1 --no-specialize
