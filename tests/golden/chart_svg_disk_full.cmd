prob odds.muster hits n=3 --svg /dev/full
