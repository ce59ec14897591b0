sheet variant_blocks.muster
