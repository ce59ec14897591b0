"""2x2 melee heavy_cavalry (+2) vs line_infantry (+0): draws rerolled."""
from random import randint
from common import run


def melee():
    while True:
        diff = (randint(1, 6) + 2) - randint(1, 6)
        if diff:
            break
    if diff >= 4:
        return "defender_destroyed_must"
    if diff == 3:
        return "defender_destroyed"
    if diff >= 1:
        return "defender_routs"
    if diff >= -2:
        return "attacker_routs"
    if diff == -3:
        return "attacker_destroyed"
    return "attacker_destroyed_must"


run(melee)
