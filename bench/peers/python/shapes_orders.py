"""bench/shapes.muster union_moves: a cup of 12 Union and 12 Confederate order dice,
drawn one at a time without putting back; the Union dice drawn before the third
Confederate one."""
from random import randint
from common import run


def union_moves():
    left_union, left, rebels, moves = 12, 24, 0, 0
    while rebels < 3:
        if randint(1, left) <= left_union:
            left_union -= 1
            moves += 1
        else:
            rebels += 1
        left -= 1
    return moves


run(union_moves)
