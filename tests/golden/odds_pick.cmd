prob odds.muster pick
