run rules.muster fire_mods cover=light flank=true supports=1 tired=true --seed=1 --explain
