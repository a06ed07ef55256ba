"""An independent brute force for Coroutine, written from the rules text, sharing no code with referee/.

States are (A's (row, col), B's (row, col), mover); the best (turns, steps) from every state is
found by relaxing until nothing changes (Bellman-Ford), not by a breadth-first search.
"""

from __future__ import annotations

import random
from functools import lru_cache

COMPASS = {0: (-1, 0), 1: (-1, 1), 2: (0, 1), 3: (1, 1), 4: (1, 0), 5: (1, -1), 6: (0, -1), 7: (-1, -1)}
MIDDLE = (1, 1)
INF = (10**9, 10**9)


def cells(board):
    """Board (9 bitmasks, row by row) -> {(row, col): set of directions}."""
    return {(i // 3, i % 3): {d for d in range(8) if board[i] >> d & 1} for i in range(9)}


def moves(arrows, state):
    """[(direction or None, next state)] from an unsolved state, by the rules text."""
    a, b, mover = state
    me, them = (a, b) if mover == "A" else (b, a)
    out = []
    for d in sorted(arrows[them]):
        r, c = me[0] + COMPASS[d][0], me[1] + COMPASS[d][1]
        if 0 <= r <= 2 and 0 <= c <= 2 and (r, c) != them:
            out.append((d, ((r, c), b, "B") if mover == "A" else (a, (r, c), "A")))
    if not out:
        out.append((None, (a, b, "B" if mover == "A" else "A")))
    return out


def solved(state):
    return MIDDLE in state[:2]


def all_states():
    squares = [(r, c) for r in range(3) for c in range(3)]
    return [(a, b, m) for a in squares for b in squares if a != b for m in "AB"]


def best_costs(board):
    """{state: (turns, steps)} of the best line from each state; INF where none exists."""
    arrows = cells(board)
    cost = {s: ((0, 0) if solved(s) else INF) for s in all_states()}
    changed = True
    while changed:
        changed = False
        for s in cost:
            if solved(s):
                continue
            for d, t in moves(arrows, s):
                if cost[t] != INF:
                    c = (cost[t][0] + 1, cost[t][1] + (d is not None))
                    if c < cost[s]:
                        cost[s], changed = c, True
    return cost


START = ((0, 0), (2, 2), "A")


def optimum(board):
    """(turns, steps) of the best answer, or None."""
    best = best_costs(board)[START]
    return None if best == INF else best


def replay(board, answer):
    """Replay [(token, direction or None)] by these rules: (turns, steps) if it solves, else None."""
    arrows, state, steps = cells(board), START, 0
    for token, direction in answer:
        if solved(state) or token != state[2]:
            return None
        options = dict(moves(arrows, state))
        if direction not in options:
            return None
        state = options[direction]
        steps += direction is not None
    return (len(answer), steps) if solved(state) else None


def count_lines(board, steps):
    """How many answers (lines ending at the first solve) take exactly `steps` steps."""
    arrows = cells(board)

    @lru_cache(maxsize=None)
    def count(state, left, passes_in_a_row):
        if solved(state):
            return int(left == 0)
        if passes_in_a_row == 2:  # both tokens stuck: the passes go round for ever
            return 0
        total = 0
        for d, t in moves(arrows, state):
            if d is None:
                total += count(t, left, passes_in_a_row + 1)
            elif left > 0:
                total += count(t, left - 1, 0)
        return total

    return count(START, steps, 0)


def random_boards(count, seed):
    """Boards of mixed density: sparse ones run long or have no answer, dense ones end fast."""
    rng = random.Random(seed)
    for _ in range(count):
        density = rng.choice((0.1, 0.2, 0.3, 0.5, 0.8))
        yield tuple(0 if s == 4 else sum(1 << d for d in range(8) if rng.random() < density) for s in range(9))
