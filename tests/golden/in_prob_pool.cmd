prob in.muster scored n=2
