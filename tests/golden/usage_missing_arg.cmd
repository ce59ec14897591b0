run combat.muster shoot
