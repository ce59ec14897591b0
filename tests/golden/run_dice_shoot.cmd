run combat.muster shoot dice=5 --dice=1,4,5,6,6
