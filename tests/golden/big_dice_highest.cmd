prob -e 'highest(roll 6d100)' --exact
