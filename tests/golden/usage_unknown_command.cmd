frobnicate combat.muster
