run combat.muster shoot dice=5 troops=guard --dice=1,4,5,6,6
