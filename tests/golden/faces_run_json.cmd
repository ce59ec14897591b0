run faces.muster kept --seed 7 --json
