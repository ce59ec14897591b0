prob -e 'sum(roll 10d6)' --svg -
