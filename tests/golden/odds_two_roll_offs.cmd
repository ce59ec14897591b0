prob odds.muster two_roll_offs
