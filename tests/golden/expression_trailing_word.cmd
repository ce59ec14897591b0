prob -e 'sum(roll 2d6) >= 8 let'
