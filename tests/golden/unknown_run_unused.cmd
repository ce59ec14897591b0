run unknown.muster drill --dice 3
