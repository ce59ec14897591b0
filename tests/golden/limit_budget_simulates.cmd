prob odds.muster explode --budget 50 --seed 1
