prob combat.muster morale troops=militia,guard --vs combat.muster
