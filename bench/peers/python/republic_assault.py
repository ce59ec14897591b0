"""Republic assault_round table=pitched_battle attacker_grade=veteran defender_grade=average,
the defender's panic hits: d10 each side; the Pitched Battle panic hits (3) are given
only for a difference of 6, every other win of the attacker gives a '?' of the text,
a draw or a loss none."""
from random import randint
from common import run


def trial():
    a, d = randint(1, 10), randint(1, 10)
    if a - d <= 0:
        return 0
    return 3 if a - d == 6 else "not_given"


run(trial)
