run -e 'roll d(2000000)'
