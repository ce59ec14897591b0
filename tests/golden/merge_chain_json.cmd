prob merge_shapes.muster chain attacks=40 --exact --json
