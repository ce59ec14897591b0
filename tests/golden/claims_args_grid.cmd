prob claims_args.muster p_hit facing=front,flank,rear
