prob combat.muster shoot dice=5 --explain
