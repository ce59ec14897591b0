run rules.muster fire stands=3 --dice=6,2,5 --explain
