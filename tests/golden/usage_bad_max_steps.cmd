run runtime.muster depth n=3 --max-steps=lots
