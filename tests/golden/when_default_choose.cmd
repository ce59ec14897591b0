prob when.muster kept_by_choice --choose Extra=one
