test no-such-file.muster
