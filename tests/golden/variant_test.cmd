test ../../rules/variants/rebs-light-cover.muster
