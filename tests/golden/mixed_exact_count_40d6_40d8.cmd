prob -e 'count(roll [40d6, 40d8] >= 5)' --json
