run combat.muster morale --dice=
