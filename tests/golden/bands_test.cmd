test bands.muster
