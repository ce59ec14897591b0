run bands.muster ranged total=4 r=long
