run combat.muster shoot dice=5 range=12
