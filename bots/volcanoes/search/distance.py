"""Connection distance: how many more tiles a player needs to join some tile to its antipode.

0-1 BFS over the board: the player's own volcanoes cost 0, empty tiles 1, enemy volcanoes block.
A distance of 0 means the player is connected (has won); BLOCKED means it never can be.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from referee.volcanoes.board import HALF, N_TILES
from referee.volcanoes.rules import NEIGHBOUR_ARRAY

BLOCKED = 1000
_NB = NEIGHBOUR_ARRAY


@njit(cache=True)
def _from(levels, player, source, dist, deque):
    """0-1 BFS from `source`; fills `dist` (BLOCKED where unreachable)."""
    dist[:] = BLOCKED
    if levels[source] * player < 0:
        return
    dist[source] = 0 if levels[source] * player > 0 else 1
    # A deque in a ring buffer: 0-cost steps go to the front, 1-cost steps to the back.
    size = 4 * N_TILES
    head, tail = 0, 1
    deque[0] = source
    while head != tail:
        t = deque[head]
        head = (head + 1) % size
        for j in range(3):
            n = _NB[t, j]
            level = levels[n] * player
            if level < 0:
                continue
            cost = 0 if level > 0 else 1
            if dist[t] + cost < dist[n]:
                dist[n] = dist[t] + cost
                if cost == 0:
                    head = (head - 1) % size
                    deque[head] = n
                else:
                    deque[tail] = n
                    tail = (tail + 1) % size


@njit(cache=True)
def connection_distance(levels, player):
    """The fewest empty tiles the player must fill to join a tile to its antipode."""
    dist = np.empty(N_TILES, dtype=np.int64)
    deque = np.empty(4 * N_TILES, dtype=np.int64)
    best = BLOCKED
    for k in range(HALF):
        if levels[k] * player < 0 or levels[k + HALF] * player < 0:
            continue
        _from(levels, player, k, dist, deque)
        if dist[k + HALF] < best:
            best = dist[k + HALF]
            if best == 0:
                break
    return best


def warm_up() -> None:
    connection_distance(np.zeros(N_TILES, dtype=np.int8), 1)
