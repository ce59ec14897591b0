prob -e 'doubles(roll 6d100)' --exact
