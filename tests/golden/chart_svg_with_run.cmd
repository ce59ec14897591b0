run odds.muster hits n=3 --svg x.svg
