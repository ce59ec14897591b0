prob when.muster kept
