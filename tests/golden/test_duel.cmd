test duel.muster
