prob odds_words_as_names.muster chance_of k=section
