sheet ../../rules/fire-and-fury.muster fire_point_band
