"""The optimal number of turns by a numba breadth-first search: the inner loop of `generate` and `hardest`.

The rules never ask which token is which (either one on the centre solves the puzzle), so a state
here is just (mover's square, other token's square), index mover * 9 + other: 56 unsolved states
rather than rules.py's 112. A step from (p, q) in direction d (an arrow on q) leads to (q, p + d); a
forced pass to (q, p). Tests check this against search.optimum.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from referee.coroutine.rules import CENTRE, Board, neighbour

NEIGHBOUR = np.array([[-1 if (to := neighbour(s, d)) is None else to for d in range(8)] for s in range(9)], np.int64)
START_STATE = 0 * 9 + 8  # A (top-left) to move, B bottom-right
MOST_TURNS = 56  # an optimal line never visits a state twice


def optimal_turns(board: Board) -> int:
    """The fewest turns that solve `board`, or -1 when it cannot be solved."""
    if len(board) != 9:
        raise ValueError(f"a board has 9 squares, got {len(board)}")
    return int(fewest_turns(np.asarray(board, np.int64), NEIGHBOUR))


@njit(cache=True)
def fewest_turns(masks, neighbour):
    turns = np.full(81, -1, np.int64)
    queue = np.empty(81, np.int64)
    turns[START_STATE] = 0
    queue[0] = START_STATE
    head, tail = 0, 1
    while head < tail:  # states leave the queue in order of turns, so the first win found is optimal
        state = queue[head]
        head += 1
        here, there = state // 9, state % 9
        stepped = False
        for d in range(8):
            to = neighbour[here, d]
            if masks[there] >> d & 1 and to >= 0 and to != there:
                if to == CENTRE:
                    return turns[state] + 1
                stepped = True
                tail = enqueue(turns, queue, tail, state, there * 9 + to)
        if not stepped:  # a forced pass
            tail = enqueue(turns, queue, tail, state, there * 9 + here)
    return -1


@njit(cache=True)
def enqueue(turns, queue, tail, state, nxt) -> int:
    """The breadth-first search's step from `state` to `nxt`: queued, one turn further, unless
    reached before; the queue's new end."""
    if turns[nxt] < 0:
        turns[nxt] = turns[state] + 1
        queue[tail] = nxt
        tail += 1
    return tail


@njit(cache=True)
def climb(target, evaluations, patience, density, seed, neighbour, best_masks):
    """Hill-climb random boards towards an optimum of `target` turns, one arrow flipped at a time.

    A flip is kept when the optimum gets no further from `target` (unsolvable boards are furthest);
    after `patience` flips without getting closer, start again from a new random board, each arrow
    shown with probability `density`. A `target` above every possible optimum asks for the longest.
    Stops after `evaluations` boards or on hitting `target`; returns the closest distance found and
    leaves that board in `best_masks`.
    """
    np.random.seed(seed)
    masks = np.zeros(9, np.int64)
    best = -1
    used = 0
    while used < evaluations and best != 0:
        for square in range(9):
            masks[square] = 0
            if square != CENTRE:
                for d in range(8):
                    if np.random.random() < density:
                        masks[square] |= 1 << d
        here = _distance(fewest_turns(masks, neighbour), target)
        stale = 0
        while stale < patience and used < evaluations and here != 0:
            square = np.random.randint(8)
            square += square >= CENTRE  # an outer square
            arrow = 1 << np.random.randint(8)
            masks[square] ^= arrow
            used += 1
            there = _distance(fewest_turns(masks, neighbour), target)
            stale = 0 if there < here else stale + 1
            if there <= here:
                here = there
            else:
                masks[square] ^= arrow
        if best < 0 or here < best:
            best = here
            best_masks[:] = masks
    return best


@njit(cache=True)
def _distance(turns, target):
    return abs(turns - target) if turns >= 0 else 1 << 20
