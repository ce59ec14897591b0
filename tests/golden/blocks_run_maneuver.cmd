run blocks.muster maneuver total=9 command=out_of_command --explain --seed 1
