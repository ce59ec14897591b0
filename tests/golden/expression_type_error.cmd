run -e 'roll 3d6 + 1'
