prob grid.muster crossing bonus=0,1,2
