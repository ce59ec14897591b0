prob -e 'sum(roll 5d6) + sum(roll 5d8) + sum(roll 5d10) + sum(roll 5d12)' --exact --csv
