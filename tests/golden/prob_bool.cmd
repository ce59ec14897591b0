prob combat.muster morale troops=veterans --seed=11 --trials=500
