run unknown.muster losses --dice 5,6,2
