prob -e 'count(roll 6d6 >= 4'
