sheet bags.muster
