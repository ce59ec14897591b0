run runtime.muster two_dice --dice=3
