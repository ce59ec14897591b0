prob grid.muster total n=1,2 --budget 20 --seed 5 --csv
