run line_endings_cr.muster pick n=3
