"""bench/shapes.muster bombard target=column: d8, a natural 1 rolled again, +1 against a
column, read on the Bombardment Effects bands."""
from random import randint
from common import run


def bombard():
    while True:
        r = randint(1, 8)
        if r != 1:
            break
    t = r + 1
    if t >= 8:
        return "two_stands_lost"
    if t == 7:
        return "stand_lost"
    if t >= 5:
        return "disordered"
    if t >= 3:
        return "shaken"
    return "no_effect"


run(bombard)
