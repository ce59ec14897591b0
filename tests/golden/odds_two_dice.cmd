prob odds.muster two_dice
