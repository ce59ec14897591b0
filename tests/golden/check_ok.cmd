check combat.muster
