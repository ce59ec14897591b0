prob bands.muster shot mod=0 --seed=3 --trials=600
