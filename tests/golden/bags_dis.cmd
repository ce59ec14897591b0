dis bags.muster union_first
