prob odds.muster explode --budget 5000
