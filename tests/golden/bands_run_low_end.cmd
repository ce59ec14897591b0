run bands.muster chart total=-9223372036854775808 --seed=1 --explain
