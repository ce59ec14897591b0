run combat.muster shoot dice=five
