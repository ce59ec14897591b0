run values.muster half x=0.5
