run variant_runtime.muster shot c=none range=0
