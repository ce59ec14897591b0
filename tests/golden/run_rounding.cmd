run values.muster rounding x=-5/2
