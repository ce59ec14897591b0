run values.muster dice n=3 --dice=5,1,3 --json
