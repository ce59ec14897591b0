run runtime.muster outer n=100 --max-depth=20
