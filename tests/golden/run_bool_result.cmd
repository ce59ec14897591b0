run values.muster wet w=rain
