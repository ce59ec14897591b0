check claims_args.muster
