prob when.muster outer --exact
