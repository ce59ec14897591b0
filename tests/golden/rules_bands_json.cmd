run rules.muster volley_at mod=1 --dice=3,4 --json
