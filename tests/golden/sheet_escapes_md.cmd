sheet sheet_escapes.muster
