run rules.muster march f=column --seed=1 --explain
