sheet ../../rules/variants/rebs-light-cover.muster --html
