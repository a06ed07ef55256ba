"""A bot that fails on purpose, as its first argument says: crash (exits on its first turn),
garbage (answers what is no index), sleep (never answers), or fine after N turns of greedy play
(`crash-after N`), or greedy but slow: `slow MS` sleeps MS ms before each answer after its first."""

import sys
import time

from _common import play

how = sys.argv[1] if len(sys.argv) > 1 else "crash"
turns = [0]


def choose(values, scores, me):
    turns[0] += 1
    if how == "crash" or (how == "crash-after" and turns[0] > int(sys.argv[2])):
        sys.exit(3)
    if how == "garbage":
        return "take the big one"
    if how == "sleep":
        time.sleep(3600)
    if how == "slow" and turns[0] > 1:
        time.sleep(int(sys.argv[2]) / 1000)
    return values.index(max(values))


play(choose)
