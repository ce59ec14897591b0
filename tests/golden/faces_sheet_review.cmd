sheet faces.muster --review
