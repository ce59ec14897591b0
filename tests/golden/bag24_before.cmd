prob bag24.muster before rebels=0
