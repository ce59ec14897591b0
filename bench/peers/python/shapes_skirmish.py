"""bench/shapes.muster skirmish_fire figures=8 target_figures=9: 8 d6, 5+ hits; half the
hits, rounded up, are figures lost; a third of the 9 figures or more falls back."""
from random import randint
from common import run


def skirmish():
    hits = sum(randint(1, 6) >= 5 for _ in range(8))
    lost = (hits + 1) // 2
    if lost * 3 >= 9:
        return "falls_back"
    if lost > 0:
        return "casualties"
    return "no_effect"


run(skirmish)
