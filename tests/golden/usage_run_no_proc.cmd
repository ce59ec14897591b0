run combat.muster
