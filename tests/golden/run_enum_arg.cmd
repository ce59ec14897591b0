run values.muster forecast w=fog
