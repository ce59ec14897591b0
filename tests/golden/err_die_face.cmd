run runtime.muster two_dice --dice=7,1
