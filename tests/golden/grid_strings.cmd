prob combat.muster first player=Ann,Bea --seed 3 --trials 500
