test examples_fail.muster
