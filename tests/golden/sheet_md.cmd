sheet rules.muster
