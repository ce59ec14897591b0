dis claims_args.muster
