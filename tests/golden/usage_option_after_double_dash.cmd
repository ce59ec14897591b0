run combat.muster morale -- --dice=1,1
