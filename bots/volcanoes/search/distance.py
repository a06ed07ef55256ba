"""Connection distances on the bitboard (`bitboard.py`): how many empty tiles a player still has
to fill to join a tile to its antipode, through its own volcanoes (free) and empty tiles (one each);
the opponent's volcanoes block. 0 means connected.

All 40 breadth-first searches at once, one bit per source tile k < 40 (forward) or per target tile
k + 40 (backward): after layer d a tile's set holds the searches that reach it for at most d empty
tiles (counting it). A group of the player's connected volcanoes costs nothing to cross, so it
shares one set; enemy tiles have an empty one. `_prepare` reads the board once into index lists
(each empty tile's three neighbours as the slot of the set they read: their own, their group's,
or the always-empty one), so a layer is a few loads and ORs per empty tile, and nothing here tests
a tile's level. The search stops at the first layer that joins a pair, or when nothing grows.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from referee.volcanoes.board import HALF, N_TILES
from referee.volcanoes.constants import BLUE
from referee.volcanoes.rules import NEIGHBOUR_ARRAY

from .bitboard import HIGH_TILES, NORTH, U, component, lowest_bit, occupied, popcount, south_bits

BLOCKED = 1000  # `connection_distance` of a player who can never connect
_NB = NEIGHBOUR_ARRAY
_ZERO, _ONE = U(0), U(1)

# Slots of the sets (columns of the _SET row): 0..79 an empty tile's own, 80 + g group g's, then
# the always-empty set that enemy tiles read.
_GROUP0 = N_TILES
_NONE = 2 * N_TILES
WIDTH = 168  # a row holds every slot, and the (empty tile, group) pairs that touch (3 x 40 at most)
# Rows of the scratch array (uint64, indices stored as uint64).
_SET, _NEW, _SLOT, _EMPTY, _SEED, _SEED_BACK, _GROUP_SEED, _GROUP_SEED_BACK = range(8)
_READ = 8  # rows 8-10: an empty tile's neighbours' slots
_TOUCH_EMPTY, _TOUCH_GROUP = 11, 12  # each (empty tile, group's slot) pair that touch
_COUNTS = 13  # row 13: [empty tiles, groups, touching pairs]
SCRATCH_ROWS = 14


def new_scratch() -> np.ndarray:
    """The scratch array of `distance`, `spread` and the evaluation."""
    return np.zeros((SCRATCH_ROWS, WIDTH), dtype=np.uint64)


@njit(cache=True)
def _tiles(lo, hi, out, n):
    """Append the tiles of the set (lo, hi) to `out` from index n, in tile order; the new count."""
    while lo:
        out[n] = U(lowest_bit(lo))
        lo &= lo - _ONE
        n += 1
    while hi:
        out[n] = U(64 + lowest_bit(hi))
        hi &= hi - _ONE
        n += 1
    return n


@njit(cache=True)
def _prepare(board, player, scratch):
    """Read the player's groups and the empty tiles into the scratch rows (see the module's
    docstring); each group's tiles k < 40 and tiles k + 40 as its forward and backward seeds."""
    colour = 0 if player == BLUE else 1
    o_lo, o_hi = occupied(board, colour, 0), occupied(board, colour, 1)
    x_lo, x_hi = occupied(board, 1 - colour, 0), occupied(board, 1 - colour, 1)
    e_lo, e_hi = ~(o_lo | x_lo), ~(o_hi | x_hi) & HIGH_TILES
    slot, listed = scratch[_SLOT], scratch[_NEW]  # _NEW: a list of tiles, until the search
    for i in range(_tiles(x_lo, x_hi, listed, 0)):
        slot[listed[i]] = U(_NONE)
    touch_empty, touch_group = scratch[_TOUCH_EMPTY], scratch[_TOUCH_GROUP]
    n_groups = n_touch = 0
    left_lo, left_hi = o_lo, o_hi
    while left_lo | left_hi:
        t = lowest_bit(left_lo) if left_lo else 64 + lowest_bit(left_hi)
        comp_lo, comp_hi, around_lo, around_hi = component(t, o_lo, o_hi)
        left_lo &= ~comp_lo
        left_hi &= ~comp_hi
        scratch[_GROUP_SEED, n_groups] = comp_lo & NORTH
        scratch[_GROUP_SEED_BACK, n_groups] = south_bits(comp_lo, comp_hi)
        g = U(_GROUP0 + n_groups)
        for i in range(_tiles(comp_lo, comp_hi, listed, 0)):
            slot[listed[i]] = g
        n = _tiles(around_lo & e_lo, around_hi & e_hi, touch_empty, n_touch)
        touch_group[n_touch:n] = g
        n_touch = n
        n_groups += 1
    empty, seed, seed_back = scratch[_EMPTY], scratch[_SEED], scratch[_SEED_BACK]
    n_empty = _tiles(e_lo, e_hi, empty, 0)
    for i in range(n_empty):
        t = np.int64(empty[i])
        slot[t] = U(t)
        seed[i] = _ONE << U(t) if t < HALF else _ZERO
        seed_back[i] = _ONE << U(t - HALF) if t >= HALF else _ZERO
    for i in range(n_empty):
        t = np.int64(empty[i])
        for j in range(3):
            scratch[_READ + j, i] = slot[_NB[t, j]]
    scratch[_COUNTS, 0] = U(n_empty)
    scratch[_COUNTS, 1] = U(n_groups)
    scratch[_COUNTS, 2] = U(n_touch)


@njit(cache=True)
def _search(scratch, cap, backward, layers):
    """The prepared searches, forward (from the tiles k < 40) or `backward` (from the tiles k + 40),
    layer by layer: (min(distance, cap), how many pairs it joins at that distance; 0 at the cap).
    Writes each empty tile's set of layer d to layers[d, tile] for the layers it has rows for."""
    n_empty, n_groups, n_touch = (
        np.int64(scratch[_COUNTS, 0]),
        np.int64(scratch[_COUNTS, 1]),
        np.int64(scratch[_COUNTS, 2]),
    )
    empty = scratch[_EMPTY]
    # Each search starts from its own tile (`seed`) and looks for the antipode (`target`).
    seed, target = (scratch[_SEED_BACK], scratch[_SEED]) if backward else (scratch[_SEED], scratch[_SEED_BACK])
    group_seed = scratch[_GROUP_SEED_BACK] if backward else scratch[_GROUP_SEED]
    group_target = scratch[_GROUP_SEED] if backward else scratch[_GROUP_SEED_BACK]
    r0, r1, r2 = scratch[_READ], scratch[_READ + 1], scratch[_READ + 2]
    touch_empty, touch_group = scratch[_TOUCH_EMPTY], scratch[_TOUCH_GROUP]
    now, after = scratch[_SET], scratch[_NEW]  # the sets of layer d and of layer d + 1
    joined = _ZERO
    for i in range(n_empty):
        now[empty[i]] = _ZERO
    for g in range(n_groups):
        now[_GROUP0 + g] = group_seed[g]
        joined |= group_seed[g] & group_target[g]
    now[_NONE] = after[_NONE] = _ZERO
    if joined:
        return 0, popcount(joined)
    if layers.shape[0]:
        for i in range(n_empty):
            layers[0, empty[i]] = _ZERO
    for d in range(1, cap):
        # Layer d: each empty tile takes its neighbours' sets of layer d - 1 (and starts its own
        # search); then each group takes in what its empty neighbours now have.
        grew = _ZERO
        for i in range(n_empty):
            e = empty[i]
            x = now[e] | seed[i] | now[r0[i]] | now[r1[i]] | now[r2[i]]
            after[e] = x
            grew |= x ^ now[e]
            joined |= x & target[i]
        if d < layers.shape[0]:
            for i in range(n_empty):
                layers[d, empty[i]] = after[empty[i]]
        for g in range(_GROUP0, _GROUP0 + n_groups):
            after[g] = now[g]
        for i in range(n_touch):
            after[touch_group[i]] |= after[touch_empty[i]]
        for g in range(n_groups):
            joined |= after[_GROUP0 + g] & group_target[g]
        if joined:
            return d, popcount(joined)
        if not grew:
            return cap, 0  # nothing new is reached: blocked for good
        now, after = after, now
    return cap, 0


@njit(cache=True)
def spread(board, player, scratch, cap, layers):
    """`distance`, which also writes each layer's sets of the empty tiles to `layers` (as many as
    it has rows; layers[d, tile]); the scratch keeps the prepared board for `spread_back`."""
    _prepare(board, player, scratch)
    return _search(scratch, cap, False, layers)


@njit(cache=True)
def spread_back(scratch, cap, layers):
    """The backward searches (bit k: from tile k + 40) of the board `spread` last prepared."""
    return _search(scratch, cap, True, layers)


@njit(cache=True)
def empty_tiles(scratch):
    """The empty tiles of the board `spread` last prepared, in tile order (as uint64)."""
    return scratch[_EMPTY, : np.int64(scratch[_COUNTS, 0])]


@njit(cache=True)
def distance(board, player, scratch, cap):
    """(min(connection distance of `player`, cap), routes): the fewest empty tiles joining a tile
    to its antipode through the player's volcanoes (0 = connected), and how many tiles k < 40 are
    joined to k + 40 that cheaply (0 at the cap)."""
    _prepare(board, player, scratch)
    return _search(scratch, cap, False, scratch[:0])


@njit(cache=True)
def connection_distance(board, player, scratch):
    """The connection distance uncapped, BLOCKED when the player can never connect."""
    d, _ = distance(board, player, scratch, N_TILES)  # a route has fewer than 80 empty tiles
    return BLOCKED if d == N_TILES else d
