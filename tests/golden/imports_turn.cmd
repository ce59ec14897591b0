turn imports.muster
