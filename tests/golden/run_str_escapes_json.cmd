run values.muster quoted --json --seed=1
