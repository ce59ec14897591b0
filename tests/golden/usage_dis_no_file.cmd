dis
