sheet sheet_words.muster
