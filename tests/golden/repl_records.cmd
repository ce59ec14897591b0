repl volley.muster --seed 1
