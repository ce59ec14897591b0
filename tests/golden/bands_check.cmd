check bands.muster
