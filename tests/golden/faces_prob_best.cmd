prob faces.muster best n=2
