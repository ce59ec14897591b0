sheet faces.muster
