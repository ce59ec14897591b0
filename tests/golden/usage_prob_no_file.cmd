prob --seed=1
