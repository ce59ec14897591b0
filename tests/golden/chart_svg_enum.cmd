prob ../../rules/rebs.muster reorganization --field result --svg -
