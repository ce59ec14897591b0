prob big_dice.muster doubles_then_highest --exact
