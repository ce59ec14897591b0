run faces.muster tally --dice hit,crit,blank,4 --explain
