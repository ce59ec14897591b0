dis dis_quotients.muster
