prob combat.muster shoot dice=5 --trials=0
