run combat.muster shoot dice=5 terrain=Terrain.woods --dice=1,4,5,6,6
