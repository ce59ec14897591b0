run runtime.muster divide a=1 b=0 --json
