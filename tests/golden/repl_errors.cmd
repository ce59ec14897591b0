repl runtime.muster --seed 1
