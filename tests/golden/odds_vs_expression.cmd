prob -e 'sum(roll 2d6)' --vs odds_house.muster
