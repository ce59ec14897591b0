sheet --review rules.muster
