run claims_args.muster p_hit facing=flank
