run values.muster negative
