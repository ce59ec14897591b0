run runtime.muster depth n=3 --max-depth=0
