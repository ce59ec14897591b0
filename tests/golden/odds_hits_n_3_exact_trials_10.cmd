prob odds.muster hits n=3 --exact --trials 10
