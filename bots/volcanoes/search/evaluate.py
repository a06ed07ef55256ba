"""The static evaluation of the alpha-beta search: a connection race, from blue's point of view.

Both players' connection distances (the empty tiles each still has to fill), measured now and, when
the coming growth erupts volcanoes, after it too (what the eruptions destroy and claim); how many
equally short routes each has; who moves next and whether that player moves twice across the
growth. `distance` computes what `search.distance.connection_distance` does, several times faster:
the search calls it at every leaf.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from referee.volcanoes import rules
from referee.volcanoes.board import HALF, N_TILES
from referee.volcanoes.rules import NEIGHBOUR_ARRAY

from .tt import WIN

DISTANCE_CAP = 12  # farther than this is "far": the evaluation treats it all alike
MAX_LEVEL = rules.MAX_LEVEL
MAX_ROUTES = 4  # more equally short routes than this count no more
# The evaluation's weights (and settings of the search that uses it), an array so that variants
# can be compared in one process.
STEP, DOUBLE_MOVE, SINGLE_MOVE, ROUTE, GROWTH_LOOK, ROUTE_ORDER, QUIET_MOVES = range(7)
WEIGHTS = np.array([
    100,  # STEP: one tile of connection distance
    150,  # DOUBLE_MOVE: the side to move plays twice (move, growth, move)
    40,  # SINGLE_MOVE: the side to move plays once, then the opponent twice
    10,  # ROUTE: each extra equally short route (up to MAX_ROUTES)
    1,  # GROWTH_LOOK: also measure the race after the coming growth when it erupts volcanoes
    1,  # ROUTE_ORDER: order moves by the cheapest routes through their tiles (else history only)
    2,  # QUIET_MOVES: below the root, search at most this many moves that are on no cheapest
    #     route and erupt nothing (0: all; needs ROUTE_ORDER)
], dtype=np.int64)

_NB = NEIGHBOUR_ARRAY
# rows of the scratch array
_REACH, _COMPONENT, _COMPONENT_REACH, _STACK = 0, 1, 2, 3
SCRATCH_ROWS = 4


def new_scratch() -> np.ndarray:
    """The scratch array of `distance` and `evaluate`."""
    return np.zeros((SCRATCH_ROWS, N_TILES), dtype=np.uint64)


@njit(cache=True)
def distance(levels, player, scratch, cap):
    """(min(connection distance of `player`, cap), routes): the fewest empty tiles joining a tile
    to its antipode through the player's volcanoes (0 = connected), as `search.distance` defines
    it, and how many tiles k < 40 are joined to k + 40 that cheaply (0 at the cap)."""
    return spread(levels, player, scratch, cap, False, scratch[:0])


@njit(cache=True)
def spread(levels, player, scratch, cap, backward, layers):
    """`distance`, which also writes each layer's reach sets to `layers` (as many as it has rows).

    All 40 breadth-first searches at once, one bit per source tile k < 40 (or, `backward`, per
    target tile k + 40): reach[t] holds the searches that reach t for at most d empty tiles
    (counting t), layer d after layer d. The player's connected groups cost nothing to cross, so a
    group shares one reach set."""
    first = HALF if backward else 0  # the tiles that start searches: bit k for tile first + k
    reach = scratch[_REACH]
    component = scratch[_COMPONENT]
    group_reach = scratch[_COMPONENT_REACH]
    stack = scratch[_STACK]
    none = np.uint64(N_TILES)
    # Label the player's groups; a group starts out reached from its own source tiles.
    for t in range(N_TILES):
        component[t] = none
        reach[t] = 0
    n_groups = 0
    for root in range(N_TILES):
        if component[root] != none or levels[root] * player <= 0:
            continue
        g = np.uint64(n_groups)
        n_groups += 1
        seeds = np.uint64(0)
        component[root] = g
        stack[0] = root
        size = 1
        while size > 0:
            size -= 1
            t = stack[size]
            if first <= t < first + HALF:
                seeds |= np.uint64(1) << np.uint64(t - first)
            for j in range(3):
                n = _NB[t, j]
                if component[n] == none and levels[n] * player > 0:
                    component[n] = g
                    stack[size] = n
                    size += 1
        group_reach[g] = seeds
    for t in range(N_TILES):
        if component[t] != none:
            reach[t] = group_reach[component[t]]
    for d in range(cap):
        if d < layers.shape[0]:
            layers[d] = reach
        # Layer d: does any search from k (k + 40) reach k + 40 (k)?
        routes = 0
        other = HALF - first
        for k in range(HALF):
            routes += (reach[k + other] >> np.uint64(k)) & np.uint64(1)
        if routes:
            return d, routes
        # Layer d + 1: empty tiles take their neighbours' layer-d sets (and start their own
        # search); then each group takes in what its empty neighbours now have.
        changed = False
        for t in range(N_TILES):
            if levels[t] != 0:
                continue
            r = reach[t]
            if first <= t < first + HALF:
                r |= np.uint64(1) << np.uint64(t - first)
            for j in range(3):
                r |= reach[_NB[t, j]]  # an enemy tile's set stays empty
            stack[t] = r  # kept aside until every empty tile has read layer d
        for t in range(N_TILES):
            if levels[t] == 0:
                if stack[t] != reach[t]:
                    changed = True
                reach[t] = stack[t]
        for t in range(N_TILES):
            if component[t] == none:
                continue
            g = component[t]
            for j in range(3):
                n = _NB[t, j]
                if levels[n] == 0:
                    group_reach[g] |= reach[n]
        for t in range(N_TILES):
            if component[t] != none:
                reach[t] = group_reach[component[t]]
        if not changed:
            return cap, 0  # nothing new is reached: blocked for good
    return cap, 0


@njit(cache=True)
def _erupts_on_growth(levels, player):
    """Whether the player has a volcano at level 3 (never dormant), which the growth erupts."""
    for t in range(N_TILES):
        if levels[t] * player == MAX_LEVEL - 1:
            return True
    return False


@njit(cache=True)
def evaluate(levels, turns_played, ply, scratch, weights):
    """Blue's advantage in the position after `turns_played` turns, a player's turn next, `ply`
    plies below the root (wins count the plies to them)."""
    mover = rules.actor(turns_played + 1)
    blue, blue_routes = distance(levels, rules.BLUE, scratch, DISTANCE_CAP)
    orange, orange_routes = distance(levels, rules.ORANGE, scratch, DISTANCE_CAP)
    # One empty tile short and to move: that tile wins (a move on an empty tile cannot erupt).
    if mover == rules.BLUE and blue <= 1:
        return WIN - ply - 1
    if mover == rules.ORANGE and orange <= 1:
        return -(WIN - ply - 1)
    race = 2 * (orange - blue)
    if weights[GROWTH_LOOK] and (_erupts_on_growth(levels, 1) or _erupts_on_growth(levels, -1)):
        # The coming growth erupts someone's volcanoes: count the race after it as much as now.
        grown = levels.copy()
        dormant = np.empty(N_TILES, dtype=np.bool_)
        for t in range(N_TILES):
            dormant[t] = grown[t] == MAX_LEVEL or grown[t] == -MAX_LEVEL
        rules.grow(grown, dormant)
        race = (orange - blue) + (distance(grown, rules.ORANGE, scratch, DISTANCE_CAP)[0]
                                  - distance(grown, rules.BLUE, scratch, DISTANCE_CAP)[0])
    score = weights[STEP] * race // 2
    score += weights[ROUTE] * (min(blue_routes, MAX_ROUTES) - min(orange_routes, MAX_ROUTES))
    phase = (turns_played + 1) % 6  # 2 and 5: the mover plays again after the growth
    tempo = weights[DOUBLE_MOVE] if phase == 2 or phase == 5 else weights[SINGLE_MOVE]
    return score + tempo * mover
