prob defer.muster mixed_ends_chosen --exact
