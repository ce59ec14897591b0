run combat.muster morale troops=guard shaken=true --dice=3,4
