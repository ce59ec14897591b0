check no-such-file.muster
