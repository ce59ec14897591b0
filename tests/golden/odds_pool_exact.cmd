prob odds.muster two_high
