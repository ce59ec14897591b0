run values.muster ratio a=10 b=4
