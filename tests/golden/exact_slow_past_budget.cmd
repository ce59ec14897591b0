prob -e 'roll d1000 + roll d1000 + roll d1000 + roll d1000 + roll d1000 + roll d1000 > 3000' --budget 1000000000000 --seed 1
