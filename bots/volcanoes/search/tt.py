"""A transposition table in two flat arrays, for numba: the full 64-bit key, and one packed int64
with the value, the depth it was searched to, the kind of bound and the best move.

The table is always-replace, indexed by the key's low bits; a colliding entry is recognised by its
key and ignored. Values are from blue's point of view; win scores are stored relative to the node
(`to_table`/`from_table`) so that a win found at one ply reads correctly at another.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# The stored value is exact, a lower bound (it was >= beta) or an upper bound (<= alpha).
EXACT, LOWER, UPPER = 1, 2, 3
WIN = 1_000_000  # a won game scores WIN - plies to the win (blue) or its negative (orange)
WIN_BAND = 10_000  # values beyond WIN - WIN_BAND are wins

_VALUE_OFFSET = 1 << 31


def new_table(bits: int) -> tuple[np.ndarray, np.ndarray]:
    """An empty table of 2**bits entries: (keys, data)."""
    return np.zeros(1 << bits, dtype=np.uint64), np.zeros(1 << bits, dtype=np.int64)


@njit(cache=True)
def to_table(value, ply):
    if value > WIN - WIN_BAND:
        return value + ply
    if value < -(WIN - WIN_BAND):
        return value - ply
    return value


@njit(cache=True)
def from_table(value, ply):
    if value > WIN - WIN_BAND:
        return value - ply
    if value < -(WIN - WIN_BAND):
        return value + ply
    return value


@njit(cache=True)
def tt_store(keys, data, h, value, depth, flag, move):
    """Remember a searched node: `move` is the best tile or -1."""
    i = h & np.uint64(keys.size - 1)
    keys[i] = h
    data[i] = (
        (np.int64(value) + _VALUE_OFFSET)
        | (np.int64(depth) << 32)
        | (np.int64(flag) << 40)
        | (np.int64(move + 1) << 48)
    )


@njit(cache=True)
def tt_probe(keys, data, h):
    """(found, value, depth, flag, move) for key `h`; move -1 when none was stored."""
    i = h & np.uint64(keys.size - 1)
    if keys[i] != h:
        return False, 0, 0, 0, -1
    d = data[i]
    value = (d & 0xFFFFFFFF) - _VALUE_OFFSET
    depth = (d >> 32) & 0xFF
    flag = (d >> 40) & 0xFF
    move = ((d >> 48) & 0xFF) - 1
    return True, value, depth, flag, move
