prob when.muster kept_by_caller
