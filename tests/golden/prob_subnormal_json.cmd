prob -e 'count(roll 410d6 == 6) == 410' --json
