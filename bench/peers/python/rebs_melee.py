"""REBS melee_roll attacker_md=4 defender_md=3, its result: each side rolls its Melee Dice,
4+ hits, more hits wins; the loser falls back D3 (a d3 rolled, as the procedure does)."""
from random import randint
from common import run


def melee():
    a = sum(randint(1, 6) >= 4 for _ in range(4))
    d = sum(randint(1, 6) >= 4 for _ in range(3))
    if a > d:
        randint(1, 3)
        return "attacker_wins"
    if d > a:
        randint(1, 3)
        return "defender_wins"
    return "draw"


run(melee)
