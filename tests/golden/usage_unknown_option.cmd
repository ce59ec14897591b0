run --frobnicate combat.muster shoot dice=5
