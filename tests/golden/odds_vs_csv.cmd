prob odds.muster hits n=3 --vs odds_house.muster --csv
