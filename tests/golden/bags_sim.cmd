prob bags.muster some n=7 --trials 20000 --seed 3 --threads 4
