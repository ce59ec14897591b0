repl --dice 6,x
