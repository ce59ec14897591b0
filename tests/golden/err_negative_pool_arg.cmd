run combat.muster shoot dice=-3 --dice=1
