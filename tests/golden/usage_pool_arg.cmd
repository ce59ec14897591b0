run values.muster size p=1,2,3
