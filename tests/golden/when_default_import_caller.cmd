prob when_import.muster kept_here
