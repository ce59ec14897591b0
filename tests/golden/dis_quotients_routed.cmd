dis dis_quotients.muster routed n=6
