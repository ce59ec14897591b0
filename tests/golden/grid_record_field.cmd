prob grid.muster melee dice=1,2 need=4,5 --field routed
