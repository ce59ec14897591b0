run runtime.muster depth n=-1
