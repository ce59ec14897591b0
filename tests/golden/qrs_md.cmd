sheet qrs.muster
