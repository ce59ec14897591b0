prob merge_shapes.muster three_exploding --exact
