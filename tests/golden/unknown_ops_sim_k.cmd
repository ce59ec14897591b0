prob unknown_ops.muster k --trials 6000 --seed 3
