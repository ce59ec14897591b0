run line_endings_cr.muster wrong
