test bags.muster
