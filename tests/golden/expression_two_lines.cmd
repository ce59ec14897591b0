prob -e $'sum(roll 2d6)\n  + 1' --json
