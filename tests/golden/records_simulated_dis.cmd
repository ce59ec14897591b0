dis records_simulated.muster volley n=3
