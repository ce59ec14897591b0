run values.muster greet "name=Marshal Ney"
