run combat.muster shoot dice=5 --seed=18446744073709551615
