test decimals.muster
