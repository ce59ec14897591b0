dis odds.muster bonus_roll
