run rules.muster strength_after strength=4 --seed=1 --explain
