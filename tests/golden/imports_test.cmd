test imports.muster helpers.muster
