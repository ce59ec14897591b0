dis tiny.muster add
