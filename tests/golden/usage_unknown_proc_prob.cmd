prob combat.muster Shoot
