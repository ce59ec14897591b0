prob rules.muster volley_at mod=0 --seed=7 --trials=2000
