run bags.muster three --seed 4 --json
