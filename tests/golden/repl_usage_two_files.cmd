repl tiny.muster values.muster
