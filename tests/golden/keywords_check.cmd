check keywords.muster
