run values.muster half x=-7/3
