run rules.muster worsen m=wavering steps=5 --seed=1 --explain
