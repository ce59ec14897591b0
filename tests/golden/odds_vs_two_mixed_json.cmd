prob vs_small.muster total --vs vs_big.muster --vs vs_small.muster --budget 1000 --seed 2 --threads 1 --json
