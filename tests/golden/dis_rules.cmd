dis dis_rules.muster
