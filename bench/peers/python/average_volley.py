"""examples/average-die.muster volley battalions=2 range=close target=line: two average
dice (2, 3, 3, 4, 4, 5) added up, +2 close range; ..4 none, 5..7 one,
8..10 two, 11.. three."""
from random import choice
from common import run

AVERAGE = (2, 3, 3, 4, 4, 5)


def volley():
    total = 2 + sum(choice(AVERAGE) for _ in range(2))
    if total <= 4:
        return "none"
    if total <= 7:
        return "one"
    if total <= 10:
        return "two"
    return "three"


run(volley)
