run -x combat.muster shoot dice=5
