prob bag24.muster last_turn
