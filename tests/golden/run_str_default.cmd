run values.muster greet
