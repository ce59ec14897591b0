diff ../../rules/rebs.muster
