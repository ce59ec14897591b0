run unknown.muster after --dice 4,6,2 --explain
