prob walks.muster back x=0 --exact
