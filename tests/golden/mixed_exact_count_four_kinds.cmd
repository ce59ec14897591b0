prob -e 'count(roll [40d6, 40d8, 40d10, 40d12] >= 5)' --json
