run rules.muster final_fire cover=light tired=true --seed=1 --explain
