sheet qrs_fit.muster --html
