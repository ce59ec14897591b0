test rules.muster
