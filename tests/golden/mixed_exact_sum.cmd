prob -e 'sum(roll [10d6, 10d8])' --json
