prob combat.muster morale troops=militia,guard shaken=true,false
