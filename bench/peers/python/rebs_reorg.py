"""REBS reorganization state=disordered (no leader, TN 4), the whole ReorgResult:
d6; a 6 removes Disordered; a 1 falls back D3+2; 4+ passes; else fails, D3 back."""
from random import randint
from common import run


def reorganization():
    r = randint(1, 6)
    if r == 6:
        return "nat6_removes_disordered,good_order,0,false"
    if r == 1:
        return f"nat1,disordered,{randint(1, 3) + 2},false"
    if r >= 4:
        return "passed,disordered,0,false"
    return f"failed,disordered,{randint(1, 3)},false"


run(reorganization)
