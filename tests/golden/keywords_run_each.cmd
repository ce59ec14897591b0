run keywords.muster each table=2 outcome=3
