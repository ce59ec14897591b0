dis in.muster odd n=3
