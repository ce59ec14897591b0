run values.muster half x=5
