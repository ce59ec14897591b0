repl errors.muster
