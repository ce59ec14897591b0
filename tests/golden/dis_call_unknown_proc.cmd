dis odds.muster nope n=1
