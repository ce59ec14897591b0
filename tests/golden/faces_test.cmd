test faces.muster
