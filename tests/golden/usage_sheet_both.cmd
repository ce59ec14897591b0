sheet rules.muster --md --html
