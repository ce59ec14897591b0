prob bags.muster two_chits --json
