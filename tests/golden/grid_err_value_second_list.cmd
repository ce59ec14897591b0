prob combat.muster morale troops=militia,guard shaken=maybe,true
