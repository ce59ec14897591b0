run bands.muster chart total=4
