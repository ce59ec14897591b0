run combat.muster first --dice=4,4,1,2 --json
