run rules.muster volley_text total=3
