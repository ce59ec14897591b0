prob vs_defaults_base.muster volley needs=4 --vs vs_defaults.muster
