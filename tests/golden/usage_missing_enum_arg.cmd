run values.muster wet
