prob grid.muster total n=1,2,3 --budget 40 --seed 5 --trials 2000
