prob unknown.muster volley mod=0,1,2 --field lost
