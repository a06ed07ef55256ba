"""Move ordering for the alpha-beta search: the empty tiles that lie on a player's cheapest routes.

A tile t is on a cheapest route of the pair (k, k + 40) when the search from k reaches t for a
empty tiles and the search from k + 40 reaches it for D + 1 - a (t counted twice), D being the
connection distance. With the layers of both searches (`distance.spread` and `spread_back`) that
is a few bitwise ANDs per tile; the number of pairs routed through a tile says how much it matters
to that player: to take it, or to block it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from referee.volcanoes.board import N_TILES

from .bitboard import popcount
from .distance import empty_tiles, spread, spread_back

ROUTE_CAP = 12  # routes longer than this are not worth ordering by


def new_layers() -> np.ndarray:
    """The layer arrays of `routes_through`: forward and backward."""
    return np.zeros((2, ROUTE_CAP + 1, N_TILES), dtype=np.uint64)


@njit(cache=True)
def routes_through(board, player, scratch, layers, out):
    """Add to out[t], for each empty tile t, the number of (k, k + 40) pairs with a cheapest route
    of the player through t."""
    d, _ = spread(board, player, scratch, ROUTE_CAP, layers[0])
    if d == 0 or d >= ROUTE_CAP:
        return
    spread_back(scratch, ROUTE_CAP, layers[1])
    forward, back = layers[0], layers[1]
    for t in empty_tiles(scratch):
        pairs = np.uint64(0)
        for a in range(1, d + 1):
            pairs |= forward[a, t] & back[d + 1 - a, t]
        out[t] += popcount(pairs)
