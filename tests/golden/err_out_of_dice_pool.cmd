run runtime.muster volley n=4 --dice=1,2
