prob odds.muster hits n=3 --vs odds_house.muster --vs odds.muster --svg -
