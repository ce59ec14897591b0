run faces.muster fire stands=2 --dice 2,blank
