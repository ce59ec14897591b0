dis tiny.muster
