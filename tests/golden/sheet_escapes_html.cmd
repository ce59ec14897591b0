sheet sheet_escapes.muster --html
