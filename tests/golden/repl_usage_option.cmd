repl --json
