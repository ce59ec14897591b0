check imports.muster
