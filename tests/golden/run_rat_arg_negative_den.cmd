run values.muster half x=6/-4
