run faces.muster attack --dice hit,3,blank
