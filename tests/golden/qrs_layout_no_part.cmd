sheet qrs_layout.muster Moral
