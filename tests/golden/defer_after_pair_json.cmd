prob defer.muster after_pair --exact --json
