run combat.muster shoot dice=10 --seed=42
