prob merge_shapes.muster nine_questions --exact
