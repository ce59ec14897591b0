run bags.muster some n=8 --seed 1
