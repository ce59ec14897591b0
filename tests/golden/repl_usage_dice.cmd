repl --dice 6,4.5
