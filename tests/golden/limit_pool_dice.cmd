run -e 'count(roll 1000001d6 >= 1)'
