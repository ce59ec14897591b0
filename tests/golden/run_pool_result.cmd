run values.muster dice --dice=6,2,4,2
