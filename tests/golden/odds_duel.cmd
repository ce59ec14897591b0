prob duel.muster duel a=4 b=3
