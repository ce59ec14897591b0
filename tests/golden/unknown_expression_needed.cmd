run -e 'roll d6 + ?'
