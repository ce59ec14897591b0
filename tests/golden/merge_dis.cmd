dis merge_shapes.muster
