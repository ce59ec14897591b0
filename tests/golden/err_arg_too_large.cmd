run runtime.muster next_after x=9223372036854775808
