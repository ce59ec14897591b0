run runtime.muster outer n=18 --max-depth=20
