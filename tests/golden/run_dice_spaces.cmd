run combat.muster shoot dice=2 "--dice= 5 , 6 ,"
