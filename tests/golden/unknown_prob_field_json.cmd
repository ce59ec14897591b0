prob unknown.muster volley --field effect --json
