sheet blocks.muster
