run keywords.muster m one=true start=5 table=true --seed=1 --explain
