"""REBS fire_loss_steps card=8 band=c: 8d6, 4+ hits, any 6 adds one hit; every 3 hits is a Loss Step."""
from random import randint
from common import run


def loss_steps():
    dice = [randint(1, 6) for _ in range(8)]
    return (sum(d >= 4 for d in dice) + (6 in dice)) // 3


run(loss_steps)
