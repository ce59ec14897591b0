prob zero_dice.muster zeros k=450
