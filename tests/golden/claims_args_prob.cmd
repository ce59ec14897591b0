prob claims_args.muster charge need=6
