"""Greedy, and emits psyleague's data lines on stderr: `[PDATA] took = N` (its pebbles' worth so
far) each turn, and `[TDATA] pebbles = N` (how many the game began with) on its first turn."""

import sys

from _common import play

state = {"turns": 0, "took": 0}


def choose(values, scores, me):
    state["turns"] += 1
    if state["turns"] == 1:
        print(f"[TDATA] pebbles = {len(values) + me}", file=sys.stderr, flush=True)
    best = values.index(max(values))
    state["took"] += values[best]
    print(f"[PDATA] took = {state['took']}", file=sys.stderr, flush=True)
    return best


play(choose)
