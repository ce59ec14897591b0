sheet qrs.muster --html --paper letter
