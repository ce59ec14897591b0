dis unknown.muster volley mod=3 --field lost
