prob grid.muster total n=1,2 --budget 10 --seed 5 --csv
