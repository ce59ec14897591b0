run combat.muster first --dice=3,3,2,2,5,1
