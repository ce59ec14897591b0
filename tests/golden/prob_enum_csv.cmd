prob values.muster forecast --seed=1 --trials=5 --csv
