test claims.muster
