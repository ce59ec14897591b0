prob combat.muster morale troops=militia,,guard
