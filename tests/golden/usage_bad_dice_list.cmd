run combat.muster morale --dice=3,x,-
