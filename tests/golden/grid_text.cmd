prob combat.muster shoot dice=2,3 terrain=open,woods
