run combat.muster shoot dice=5 troop=guard
