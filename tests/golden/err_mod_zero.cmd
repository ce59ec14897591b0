run runtime.muster modulo a=7 b=0
