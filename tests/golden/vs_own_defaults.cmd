prob vs_defaults_base.muster volley --vs vs_defaults.muster
