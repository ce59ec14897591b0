"""Republic assault_round table=pitched_battle attacker_grade=veteran defender_grade=average,
its difference: d10 each side; the Pitched Battle panic hits are given only for a
difference of 6, every other difference reaches a '?' of the text."""
from random import randint
from common import run


def trial():
    a, d = randint(1, 10), randint(1, 10)
    return 6 if a - d == 6 else "not_given"


run(trial)
