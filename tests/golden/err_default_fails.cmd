run combat.muster casualties --dice=1,2
