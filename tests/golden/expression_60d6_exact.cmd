prob -e 'count(roll 60d6 >= 4)'
