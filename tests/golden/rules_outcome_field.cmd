run rules.muster removed mod=5 --dice=2,2 --explain
