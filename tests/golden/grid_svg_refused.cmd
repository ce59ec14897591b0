prob qrs.muster hits c=none,light r=short --svg chart.svg
