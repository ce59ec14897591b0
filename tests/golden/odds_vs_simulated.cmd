prob odds.muster hits n=3 --vs odds_house.muster --trials 1000 --seed 5
