prob vs_gap.muster gappy --vs vs_gap_house.muster --trials 1000 --seed 4
