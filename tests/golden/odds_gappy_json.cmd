prob odds.muster gappy --json
