run combat.muster shoot dice=5 --trials=10
