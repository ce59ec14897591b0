run runtime.muster keep n=3 k=-1 --dice=1,2,3
