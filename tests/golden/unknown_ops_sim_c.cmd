prob unknown_ops.muster c --trials 6000 --seed 3
