prob grid.muster melee dice=1,3 --field hits --json
