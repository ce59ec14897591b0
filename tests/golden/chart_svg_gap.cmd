prob odds.muster gappy --svg -
