run errors.muster total
