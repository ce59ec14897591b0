dis odds.muster pick --choose Pick=high
