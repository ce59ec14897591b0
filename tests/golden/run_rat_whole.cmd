run values.muster whole
