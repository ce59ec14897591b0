check blocks.muster
