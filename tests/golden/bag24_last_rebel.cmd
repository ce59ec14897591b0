prob bag24.muster last_rebel drawn=0 rebels=12
