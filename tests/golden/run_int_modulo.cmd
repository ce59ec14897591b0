run values.muster remainder
