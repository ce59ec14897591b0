prob when.muster kept_pool
