sheet rules.muster --html
