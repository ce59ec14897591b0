prob combat.muster morale troops=,
