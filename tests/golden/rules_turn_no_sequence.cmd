turn tiny.muster
