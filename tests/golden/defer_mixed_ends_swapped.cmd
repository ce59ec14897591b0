prob defer.muster mixed_ends_swapped --exact
