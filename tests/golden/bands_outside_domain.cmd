run bands.muster shot mod=2 --dice=6 --explain
