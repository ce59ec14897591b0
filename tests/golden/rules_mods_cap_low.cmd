run rules.muster fire_mods cover=heavy flank=false supports=0 tired=true --seed=1 --explain
