run values.muster best n=5 --dice=1,6,3,5,2
