prob when_import.muster kept
