prob bags.muster union_first
