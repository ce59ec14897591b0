prob odds.muster hits n=3 --html
