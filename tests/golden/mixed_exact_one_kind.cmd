prob -e 'sum(roll [d20, d20, d20])'
