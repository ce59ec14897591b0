prob slow.muster six_thousands small=true,false --budget 1000000000000 --seed 1
