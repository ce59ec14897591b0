run combat.muster first player=Carol "opponent=Dan the Elder" --dice=1,6
