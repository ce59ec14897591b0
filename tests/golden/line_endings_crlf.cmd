run line_endings_crlf.muster wrong
