prob when.muster kept_record --field first
