prob -e 'sum(roll 10d100)' --exact --csv
