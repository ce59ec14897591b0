check examples_fail.muster
