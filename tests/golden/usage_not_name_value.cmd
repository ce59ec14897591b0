run combat.muster shoot 5
