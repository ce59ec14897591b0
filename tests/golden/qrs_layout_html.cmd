sheet qrs_layout.muster --html
