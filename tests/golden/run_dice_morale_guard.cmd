run combat.muster morale troops=guard --dice=3,4
