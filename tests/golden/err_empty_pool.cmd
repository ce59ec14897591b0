run runtime.muster best n=3 --dice=1,2,3
