sheet qrs_fit.muster
