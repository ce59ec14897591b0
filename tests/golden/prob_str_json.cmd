prob combat.muster first --seed=2 --trials=50 --json
