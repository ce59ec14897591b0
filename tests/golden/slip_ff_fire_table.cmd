sheet ../../rules/fire-and-fury.muster fire_table
