prob grid.muster total n=1,2,3 --budget 12 --seed 5
