run rules.muster hit_unit strength=3 steps=2 --seed=1 --json
