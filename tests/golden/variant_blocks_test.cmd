test variant_blocks.muster
