run combat.muster shoot dice=3 --seed=5 --json
