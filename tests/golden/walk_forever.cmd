prob walks.muster forever x=0 --exact
