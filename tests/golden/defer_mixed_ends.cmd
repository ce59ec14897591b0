prob defer.muster mixed_ends --exact
