prob combat.muster shoot dice=4 --seed=3 --trials=200 --csv
