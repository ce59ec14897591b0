run values.muster forecast
