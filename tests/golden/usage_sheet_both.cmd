sheet --review rules.muster --md --html
