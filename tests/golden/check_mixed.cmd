check combat.muster errors.muster values.muster
