prob odds.muster throw --field dice --trials 2000 --seed 3
