sheet qrs.muster --md --pdf x.pdf
