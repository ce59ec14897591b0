prob zero_dice.muster ones k=450
