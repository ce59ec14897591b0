run values.muster forecast w=Weather.clear
