run combat.muster morale troops=militia --dice=6,2 --explain
