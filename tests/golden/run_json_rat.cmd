run values.muster ratio --json --seed=9
