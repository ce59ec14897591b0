prob faces.muster fate --json
