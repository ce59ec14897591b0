check rules.muster
