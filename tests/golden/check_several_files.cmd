check combat.muster values.muster tiny.muster
