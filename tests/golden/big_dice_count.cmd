prob -e 'count(roll 6d100 >= 90)' --exact
