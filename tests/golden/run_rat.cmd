run values.muster ratio
