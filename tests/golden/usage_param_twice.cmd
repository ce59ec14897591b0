run combat.muster shoot dice=5 dice=6
