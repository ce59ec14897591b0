prob when.muster kept_fails
