"""The static evaluation of the alpha-beta search: a connection race, from blue's point of view.

Both players' connection distances (the empty tiles each still has to fill), measured now and, when
the coming growth erupts volcanoes, after it too (what the eruptions destroy and claim); how many
equally short routes each has; who moves next and whether that player moves twice across the
growth. Positions are boards of the bitboard core (`bitboard.py`); the distances are
`distance.distance`'s bit-parallel searches.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from referee.volcanoes.constants import BLUE, CYCLE, ORANGE

from .bitboard import N_WORDS, erupts_on_growth, grow
from .distance import SCRATCH_ROWS, WIDTH, distance
from .tt import WIN

DISTANCE_CAP = 12  # farther than this is "far": the evaluation treats it all alike
MAX_ROUTES = 4  # more equally short routes than this count no more
# The evaluation's weights (and settings of the search that uses it), an array so that variants
# can be compared in one process.
STEP, DOUBLE_MOVE, SINGLE_MOVE, ROUTE, GROWTH_LOOK, ROUTE_ORDER, QUIET_MOVES = range(7)
WEIGHTS = np.array(
    [
        100,  # STEP: one tile of connection distance
        150,  # DOUBLE_MOVE: the side to move plays twice (move, growth, move)
        40,  # SINGLE_MOVE: the side to move plays once, then the opponent twice
        10,  # ROUTE: each extra equally short route (up to MAX_ROUTES)
        1,  # GROWTH_LOOK: also measure the race after the coming growth when it erupts volcanoes
        1,  # ROUTE_ORDER: order moves by the cheapest routes through their tiles (else history only)
        2,  # QUIET_MOVES: below the root, search at most this many moves that are on no cheapest
        #     route and erupt nothing (0: all; needs ROUTE_ORDER)
    ],
    dtype=np.int64,
)
_CYCLE = np.array(CYCLE, dtype=np.int64)

# The board after the coming growth, for GROWTH_LOOK: a row of the distances' scratch array.
_GROWN = SCRATCH_ROWS
_N_ROWS = SCRATCH_ROWS + 1


def new_scratch() -> np.ndarray:
    """The scratch array of `evaluate` (the distances' rows, and one more)."""
    return np.zeros((_N_ROWS, WIDTH), dtype=np.uint64)


@njit(cache=True)
def evaluate(board, turns_played, ply, scratch, weights):
    """Blue's advantage in the position (a bitboard) after `turns_played` turns, a player's turn
    next, `ply` plies below the root (wins count the plies to them)."""
    mover = _CYCLE[turns_played % 6]
    blue, blue_routes = distance(board, BLUE, scratch, DISTANCE_CAP)
    orange, orange_routes = distance(board, ORANGE, scratch, DISTANCE_CAP)
    # One empty tile short and to move: that tile wins (a move on an empty tile cannot erupt).
    if mover == BLUE and blue <= 1:
        return WIN - ply - 1
    if mover == ORANGE and orange <= 1:
        return -(WIN - ply - 1)
    race = 2 * (orange - blue)
    if weights[GROWTH_LOOK] and erupts_on_growth(board):
        # The coming growth erupts someone's volcanoes: count the race after it as much as now.
        grown = scratch[_GROWN, :N_WORDS]
        grown[:] = board
        grow(grown, scratch)  # (its scratch argument is unused)
        race = (orange - blue) + (
            distance(grown, ORANGE, scratch, DISTANCE_CAP)[0] - distance(grown, BLUE, scratch, DISTANCE_CAP)[0]
        )
    score = weights[STEP] * race // 2
    score += weights[ROUTE] * (min(blue_routes, MAX_ROUTES) - min(orange_routes, MAX_ROUTES))
    phase = (turns_played + 1) % 6  # 2 and 5: the mover plays again after the growth
    tempo = weights[DOUBLE_MOVE] if phase == 2 or phase == 5 else weights[SINGLE_MOVE]
    return score + tempo * mover
