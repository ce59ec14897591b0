run runtime.muster two_dice --dice=4 --explain
