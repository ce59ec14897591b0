check rules.muster examples_fail.muster bands.muster keywords.muster
