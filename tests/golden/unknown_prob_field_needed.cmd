prob unknown.muster after --field steady
