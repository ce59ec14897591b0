check ../../rules/variants/rebs-light-cover.muster
