prob walks.muster after_forever
