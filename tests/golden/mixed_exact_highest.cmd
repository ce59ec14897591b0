prob -e 'highest(roll [d8, d6])'
