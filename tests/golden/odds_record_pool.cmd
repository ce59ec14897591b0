prob odds.muster throw
