"""Republic maneuver_roll division_commander=energetic proficient_within_2=1: d10 + 2."""
from random import randint
from common import run

run(lambda: randint(1, 10) + 2)
