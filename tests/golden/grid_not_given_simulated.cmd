prob grid.muster crossing bonus=0,1 --trials 1000 --seed 2
