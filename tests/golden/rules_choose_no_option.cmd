run rules.muster fire stands=2 --dice=6,6 --choose=Critical
