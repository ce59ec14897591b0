dis ../../rules/republic.muster assault_round table=pitched_battle attacker_grade=veteran defender_grade=average --field defender_panic
