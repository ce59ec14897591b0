prob big_dice.muster total_then_hits --exact
