prob bag_draw_in.muster f0 --exact
