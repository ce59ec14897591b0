sheet qrs.muster --html
