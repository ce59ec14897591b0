run variant_runtime.muster dice_per_range c=light
