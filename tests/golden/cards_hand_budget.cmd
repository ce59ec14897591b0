prob cards.muster hand_high --exact
