"""New Coroutine puzzles: random boards with an optimum of exactly N turns, and the longest we can find.

Both run fast.py's hill climb (flip one arrow, keep the board if its optimum gets no further from
the goal, restart from a new random board when stuck), in batches with seeds drawn from one seed.
"""
from __future__ import annotations

import random
import time
from collections.abc import Callable

import numpy as np

from referee.coroutine.fast import MOST_TURNS, NEIGHBOUR, _climb, optimal_turns
from referee.coroutine.rules import Board

DENSITY = 0.3  # a restart's board shows each arrow with this probability: sparse boards run long
PATIENCE = 2000  # flips without getting closer before a restart
BATCH = 200_000  # boards evaluated per kernel call (about 0.2-0.5 s)
LONGEST = MOST_TURNS + 1  # a target above every possible optimum: climb towards the longest
LONGEST_POSSIBLE = 29  # proved by bound.py: no board needs 30 turns (`referee coroutine bound`, tested)


def generate(turns: int, count: int = 1, seed: int | None = None, effort: int = 50_000_000) -> list[Board]:
    """Up to `count` distinct boards whose optimum is exactly `turns`, within `effort` evaluations."""
    if not 1 <= turns <= MOST_TURNS:
        raise ValueError(f"an optimum is 1 to {MOST_TURNS} turns, not {turns}")
    seeds = random.Random(seed)
    found: list[Board] = []
    used = 0
    while len(found) < count and used < effort:
        budget = min(BATCH, effort - used)
        board, distance = _run_climb(turns, budget, seeds.getrandbits(32))
        used += budget
        if distance == 0 and board not in found:
            found.append(board)
    return found


def hardest(
    seconds: float, seed: int | None = None, report: Callable[[Board, int, float], None] | None = None
) -> tuple[Board, int]:
    """The board with the longest optimum found within `seconds` (or as soon as one has the longest
    possible), and that optimum. `report(board, turns, elapsed)` is called on each new record.
    """
    seeds = random.Random(seed)
    start = time.perf_counter()
    best: Board | None = None
    best_turns = -1
    while best is None or (best_turns < LONGEST_POSSIBLE and time.perf_counter() - start < seconds):
        board, _ = _run_climb(LONGEST, BATCH, seeds.getrandbits(32))
        turns = optimal_turns(board)
        if turns > best_turns:
            best, best_turns = board, turns
            if report:
                report(board, turns, time.perf_counter() - start)
    return best, best_turns


def _run_climb(target: int, evaluations: int, seed: int) -> tuple[Board, int]:
    masks = np.zeros(9, np.int64)
    distance = _climb(target, evaluations, PATIENCE, DENSITY, seed, NEIGHBOUR, masks)
    return tuple(int(m) for m in masks), int(distance)
