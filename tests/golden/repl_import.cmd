repl
