run decimals.muster tenths
