"""For Reign or Ruin shoot sht=6 def=4: 6 d10, each above 4 hits."""
from random import randint
from common import run

run(lambda: sum(randint(1, 10) > 4 for _ in range(6)))
