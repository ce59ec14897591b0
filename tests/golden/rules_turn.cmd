turn rules.muster
