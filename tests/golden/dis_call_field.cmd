dis odds.muster throw --field total
