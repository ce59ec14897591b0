prob -e 'count(roll 4d6 >= 5)' --json
