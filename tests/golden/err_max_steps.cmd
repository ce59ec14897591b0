run runtime.muster fib n=25 --max-steps=1000
