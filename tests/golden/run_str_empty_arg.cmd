run values.muster greet name=
