prob -e 'sum(lowest(2, roll [3d4, 2d12, d6]))' --json
