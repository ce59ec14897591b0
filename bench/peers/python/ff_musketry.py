"""Fire and Fury musketry_effect weapon=rm range=close stands=4 (trained): d10 - 1."""
from random import randint
from common import run


def musketry():
    t = randint(1, 10) - 1
    if t >= 11:
        return "withering"
    if t >= 9:
        return "telling_checked"
    if t == 8:
        return "telling_cold_steel"
    if t == 7:
        return "telling_home"
    if t >= 5:
        return "galling"
    if t == 4:
        return "lively"
    return "desultory"


run(musketry)
