prob duel.muster shots hp=2 --csv
