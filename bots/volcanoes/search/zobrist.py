"""Zobrist hashing of Volcanoes positions: one random key per (tile, level) and one per turn number.

Dormancy needs no key: at every turn boundary a volcano is dormant exactly when its level is +-4.
The turn number is part of the key because the game is drawn after a fixed number of turns, and
because whose turn it is (and whether a growth comes next) follows from it.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from referee.volcanoes.board import N_TILES

MAX_TURN_KEYS = 256  # more than the 200 turns a game may last

_rng = np.random.default_rng(0x5EED_CA1DE7A)
LEVEL_KEYS = _rng.integers(0, 2**64 - 1, size=(N_TILES, 9), dtype=np.uint64, endpoint=True)
LEVEL_KEYS[:, 4] = 0  # an empty tile adds nothing
TURN_KEYS = _rng.integers(0, 2**64 - 1, size=MAX_TURN_KEYS, dtype=np.uint64, endpoint=True)
del _rng


@njit(cache=True)
def zobrist_hash(levels, turns_played):
    """The key of `levels` after `turns_played` turns, computed from scratch."""
    h = TURN_KEYS[turns_played]
    for t in range(N_TILES):
        h ^= LEVEL_KEYS[t, levels[t] + 4]
    return h


@njit(cache=True)
def update_hash(h, before, after, turns_played):
    """The key after one turn turned `before` into `after` (turns_played counts before the turn)."""
    h = np.uint64(h) ^ TURN_KEYS[turns_played] ^ TURN_KEYS[turns_played + 1]
    for t in range(N_TILES):
        if before[t] != after[t]:
            h ^= LEVEL_KEYS[t, before[t] + 4] ^ LEVEL_KEYS[t, after[t] + 4]
    return h
