prob spec_out_of_temps.muster f0 --trials 2000 --seed 1
