sheet --review ../../rules/variants/rebs-light-cover.muster --html
