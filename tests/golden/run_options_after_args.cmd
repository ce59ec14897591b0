run combat.muster shoot --dice 6,6,6 dice=3
