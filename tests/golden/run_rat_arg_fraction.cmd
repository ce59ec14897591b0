run values.muster half x=3/2
