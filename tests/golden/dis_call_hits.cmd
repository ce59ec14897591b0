dis odds.muster hits n=12
