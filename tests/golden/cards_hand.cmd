prob cards.muster hand --exact --json
