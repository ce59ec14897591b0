prob combat.muster morale troops=militia,elite
