prob defer.muster mixed_ends_held --exact
