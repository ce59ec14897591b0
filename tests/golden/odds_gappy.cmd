prob odds.muster gappy
