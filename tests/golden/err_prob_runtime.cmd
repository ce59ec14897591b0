prob runtime.muster two_dice --seed=1 --trials=10 --max-steps=2
