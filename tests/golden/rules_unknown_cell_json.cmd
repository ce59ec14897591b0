run rules.muster formation_factor f=skirmish --seed=1 --json
