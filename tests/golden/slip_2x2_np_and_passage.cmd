sheet ../../rules/2x2.muster rally_mods shooting_mods
