prob -e 'any(roll 60d6 == 6)' --json
