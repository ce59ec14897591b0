repl --seed 2
