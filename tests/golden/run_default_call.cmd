run combat.muster casualties --dice=5,5,5,1,6,4,3
