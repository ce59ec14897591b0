prob volley.muster volley fv=60 --field hits
