sheet qrs_layout.muster fire_table --review
