prob cards.muster hand --exact
