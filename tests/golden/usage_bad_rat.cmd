run values.muster half x=1/0
