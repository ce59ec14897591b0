prob odds.muster hits n=3 --vs missing.muster
