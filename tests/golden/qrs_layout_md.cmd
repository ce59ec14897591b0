sheet qrs_layout.muster
