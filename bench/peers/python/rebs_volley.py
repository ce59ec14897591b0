"""REBS fire_hits card=8 band=c: 8d6, 4+ hits, any 6 adds one hit."""
from random import randint
from common import run


def volley():
    dice = [randint(1, 6) for _ in range(8)]
    return sum(d >= 4 for d in dice) + (6 in dice)


run(volley)
