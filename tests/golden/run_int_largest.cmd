run values.muster largest
