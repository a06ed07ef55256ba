"""Zobrist hashing of Volcanoes positions (boards of the bitboard core, `bitboard.py`): one random
key per (tile, level) and one per turn number.

Dormancy needs no key: at every turn boundary a volcano is dormant exactly when its level is +-4.
The turn number is part of the key because the game is drawn after a fixed number of turns, and
because whose turn it is (and whether a growth comes next) follows from it. A turn's update XORs
the keys of the bits that changed in the board's level planes, so it costs what the turn changed.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from referee.volcanoes.board import N_TILES

from .bitboard import U, lowest_bit

MAX_TURN_KEYS = 256  # more than the 200 turns a game may last
N_PLANES = 8  # blue levels 1-4, orange levels 1-4: board words 2p (tiles 0-63) and 2p + 1 (64-79)

_rng = np.random.default_rng(0x5EED_CA1DE7A)
LEVEL_KEYS = _rng.integers(0, 2**64 - 1, size=(N_TILES, 9), dtype=np.uint64, endpoint=True)
LEVEL_KEYS[:, 4] = 0  # an empty tile adds nothing
TURN_KEYS = _rng.integers(0, 2**64 - 1, size=MAX_TURN_KEYS, dtype=np.uint64, endpoint=True)
del _rng
# PLANE_KEYS[w, b]: the key of bit b of board word w (a tile at the level of that plane).
PLANE_KEYS = np.zeros((2 * N_PLANES, 64), dtype=np.uint64)
for _p in range(N_PLANES):
    _level = _p + 1 if _p < 4 else -(_p - 3)
    for _t in range(N_TILES):
        PLANE_KEYS[2 * _p + (_t >> 6), _t & 63] = LEVEL_KEYS[_t, _level + 4]


@njit(cache=True)
def _keys_of(word, w):
    """The XOR of the keys of word w's set bits."""
    h = np.uint64(0)
    while word:
        h ^= PLANE_KEYS[w, lowest_bit(word)]
        word &= word - U(1)
    return h


@njit(cache=True)
def zobrist_hash(board, turns_played):
    """The key of `board` after `turns_played` turns, computed from scratch."""
    h = TURN_KEYS[turns_played]
    for w in range(2 * N_PLANES):
        h ^= _keys_of(board[w], w)
    return h


@njit(cache=True)
def update_hash(h, before, after, turns_played):
    """The key after one turn turned board `before` into `after` (turns_played counts before the
    turn)."""
    h = np.uint64(h) ^ TURN_KEYS[turns_played] ^ TURN_KEYS[turns_played + 1]
    for w in range(2 * N_PLANES):
        h ^= _keys_of(before[w] ^ after[w], w)
    return h
