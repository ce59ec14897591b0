prob odds.muster hits n=3 --svg no-such-folder/hits.svg
