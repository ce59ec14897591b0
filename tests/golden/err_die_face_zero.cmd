run runtime.muster two_dice --dice=0,1
