prob in.muster one
