prob values.muster ratio --seed=1 --trials=3
