prob odds.muster pick --choose Pick=high
