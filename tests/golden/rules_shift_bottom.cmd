run rules.muster worsen m=shaken steps=-9 --seed=1 --json
