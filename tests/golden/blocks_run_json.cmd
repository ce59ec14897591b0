run blocks.muster maneuver total=11 command=in_command --json --seed 1
