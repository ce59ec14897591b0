prob rules.muster fire stands=2 --seed=7 --trials=2000 --choose=Critical=disorder
