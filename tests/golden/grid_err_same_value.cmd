prob combat.muster morale troops=guard,Troops.guard
