run no-such-file.muster shoot
