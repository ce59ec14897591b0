prob odds.muster explode --budget 50 --exact
