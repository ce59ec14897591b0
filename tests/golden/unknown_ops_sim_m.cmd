prob unknown_ops.muster m --trials 6000 --seed 3
