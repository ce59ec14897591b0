run combat.muster shoot dice=5 troops=vetrans
