prob -e 'sum(highest(3, roll [6d6, 6d10]))' --json
