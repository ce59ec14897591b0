sheet --review sheet_escapes.muster
