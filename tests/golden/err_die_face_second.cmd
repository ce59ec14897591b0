run runtime.muster two_dice --dice=6,11
