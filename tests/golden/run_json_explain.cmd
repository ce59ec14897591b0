run combat.muster morale --dice=6,6 --json --explain
