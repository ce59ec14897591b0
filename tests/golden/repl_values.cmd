repl values.muster --seed 1
