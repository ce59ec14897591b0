run imports.muster charge side=attacker --dice=3,4 --explain
