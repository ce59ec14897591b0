run values.muster quoted
