prob faces.muster mixed
