prob cards.muster high_card --exact
