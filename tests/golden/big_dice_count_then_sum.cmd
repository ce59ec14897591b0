prob big_dice.muster hits_and_total --exact
