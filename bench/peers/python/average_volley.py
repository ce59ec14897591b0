"""examples/average-die.muster volley battalions=4 range=close target=column: four average
dice (2, 3, 3, 4, 4, 5) added up, +2 close range, +1 column; ..4 none, 5..7 one,
8..10 two, 11.. three."""
from random import choice
from common import run

AVERAGE = (2, 3, 3, 4, 4, 5)


def volley():
    total = 3 + sum(choice(AVERAGE) for _ in range(4))
    if total <= 4:
        return "none"
    if total <= 7:
        return "one"
    if total <= 10:
        return "two"
    return "three"


run(volley)
