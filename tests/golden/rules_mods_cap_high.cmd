run rules.muster fire_mods cover=none flank=true supports=2 tired=false --seed=1 --explain
