prob odds.muster roll_off --svg -
