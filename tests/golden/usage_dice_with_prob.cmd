prob combat.muster shoot dice=5 --dice=1,2,3
