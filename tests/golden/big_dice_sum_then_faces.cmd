prob big_dice.muster percentile_pair --exact --json
