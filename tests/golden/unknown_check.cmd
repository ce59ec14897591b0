check unknown.muster
