sheet sheet_words.muster first_order melee
