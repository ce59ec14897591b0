sheet --review rules.muster --html
