prob batch.muster rally --seed 7 --trials 20000
