run in.muster f x=4
