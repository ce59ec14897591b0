dis defer.muster
