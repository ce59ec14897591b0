run runtime.muster square x=4000000000
