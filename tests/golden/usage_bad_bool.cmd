run combat.muster morale shaken=yes
