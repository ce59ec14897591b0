prob merge_shapes.muster chain attacks=12 --exact
