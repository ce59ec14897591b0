run rules.muster final_fire cover=heavy tired=false --seed=1 --json
