run runtime.muster ratio_overflow
