"""What every Pebbles test bot does: read its first line, then a turn's three lines, and answer."""

import sys


def play(choose) -> None:
    """`choose(values, scores, me) -> answer line`, each turn until the input ends."""
    first = sys.stdin.readline()
    if not first:
        return
    players, me = map(int, first.split())
    while True:
        scores = sys.stdin.readline()
        if not scores:
            return
        sys.stdin.readline()  # how many pebbles are left: the next line says it too
        values = [int(v) for v in sys.stdin.readline().split()]
        print(choose(values, [int(s) for s in scores.split()], me), flush=True)
