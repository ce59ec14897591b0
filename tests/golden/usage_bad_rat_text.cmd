run values.muster half x=one-half
