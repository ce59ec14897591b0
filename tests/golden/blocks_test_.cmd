test blocks.muster
