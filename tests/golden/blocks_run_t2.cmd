run blocks.muster t2 x=out_of_command y=in_command
