prob walks.muster pursuit gap=5 --exact
