sheet qrs.muster --paper legal
