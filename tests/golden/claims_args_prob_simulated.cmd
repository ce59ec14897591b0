prob claims_args.muster charge need=6 --trials 2000 --seed 4
