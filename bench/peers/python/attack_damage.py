"""examples/attack-dice.muster damage red=3 agility=2 black=1: three red eight-sided dice
(3 hit, 1 crit, 2 focus, 2 blank) and a black six-sided one (2 hit, 2 crit, 2 blank);
hits and crits score; two white eight-sided dice (3 evade, 2 focus, 3 blank), each
evade cancels a hit; the damage is what is left, at least 0."""
from random import randint
from common import run


def damage():
    hits = sum(randint(1, 8) <= 4 for _ in range(3)) + (randint(1, 6) <= 4)
    evades = sum(randint(1, 8) <= 3 for _ in range(2))
    return max(0, hits - evades)


run(damage)
