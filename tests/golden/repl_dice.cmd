repl --dice 6,3,4 --seed 5
