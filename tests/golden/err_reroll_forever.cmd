run runtime.muster forever --seed=1
