repl odds.muster --seed 3 --choose Pick=high --trials 2000 --threads 2
