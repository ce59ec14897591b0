prob vs_gap.muster gappy --vs vs_gap_house.muster --html
