run combat.muster charge
