run unknown.muster lost --dice 5,6,2
