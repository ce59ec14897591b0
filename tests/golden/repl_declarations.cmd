repl --seed 7
