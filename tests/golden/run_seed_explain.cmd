run combat.muster shoot dice=10 troops=veterans --seed=7 --explain
