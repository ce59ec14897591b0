prob unknown_ops.muster r --trials 6000 --seed 3
