sheet --review variant_blocks.muster
