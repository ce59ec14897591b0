prob qrs.muster hits c=none,light r=short --html
