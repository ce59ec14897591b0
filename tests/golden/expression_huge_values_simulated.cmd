prob -e 'roll d6 + 9223372036854775800' --trials 100 --seed 1 --threads 1
