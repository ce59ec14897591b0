prob faces.muster kept
