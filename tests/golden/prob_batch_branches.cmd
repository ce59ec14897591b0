prob batch.muster volley dice=6 cover=1 --seed 5 --trials 20000
