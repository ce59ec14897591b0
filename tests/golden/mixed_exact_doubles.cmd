prob -e 'doubles(roll [3d6, 2d8])'
