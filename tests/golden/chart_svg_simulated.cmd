prob odds.muster two_dice --trials 2000 --seed 7 --svg -
