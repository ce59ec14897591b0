prob values.muster
