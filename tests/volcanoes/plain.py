"""Plain-Python oracles for the numba kernels: connection distances by Dijkstra from each tile, the
evaluation written out over the reference rules, and the lowest connecting placement that the
playouts' decisive moves look for. Slow and readable; the kernels (bitboards, bit-parallel
searches) must agree with them exactly."""

from __future__ import annotations

import heapq

import numpy as np

from bots.volcanoes.search import bitboard
from bots.volcanoes.search.evaluate import DOUBLE_MOVE, GROWTH_LOOK, MAX_ROUTES, ROUTE, SINGLE_MOVE, STEP, WEIGHTS
from bots.volcanoes.search.tt import WIN
from referee.volcanoes import reference, rules
from referee.volcanoes.board import HALF, N_TILES, NEIGHBOURS
from referee.volcanoes.constants import BLUE, MAX_LEVEL, ORANGE


def board_of(levels) -> np.ndarray:
    """The bitboard of 80 signed levels."""
    board = bitboard.new_board()
    bitboard.from_levels(np.asarray(levels, dtype=np.int8), board)
    return board


def after_random_turns(turns: int, rng, scratch) -> np.ndarray | None:
    """The bitboard after `turns` uniformly random turns from the empty board (drawn from the
    generator state `rng`), or None if the game ended on the way."""
    board = bitboard.new_board()
    for turn in range(1, turns + 1):
        who = reference.actor(turn)
        tile = 0 if who == reference.GROWTH else bitboard.random_move(board, who, rng)
        if bitboard.step(board, turn, tile, scratch) != rules.ONGOING:
            return None
    return board


def lowest_connecting_placement(levels, player) -> int:
    """The lowest empty tile whose placement joins a tile to its antipode for `player`, or -1."""
    for tile in np.flatnonzero(levels == 0):
        after = levels.copy()
        after[tile] = player
        if rules.connects(after, player):
            return int(tile)
    return -1


def cheapest(levels, player, source):
    """Dijkstra from `source`: the empty tiles (counting both ends) on the cheapest way to each
    tile through the player's volcanoes and empty tiles, None where the opponent blocks."""
    if levels[source] * player < 0:
        return [None] * N_TILES
    cost = [None] * N_TILES
    cost[source] = 0 if levels[source] * player > 0 else 1
    heap = [(cost[source], source)]
    while heap:
        c, t = heapq.heappop(heap)
        if c > cost[t]:
            continue
        for n in NEIGHBOURS[t]:
            if levels[n] * player < 0:
                continue
            step = c + (0 if levels[n] * player > 0 else 1)
            if cost[n] is None or step < cost[n]:
                cost[n] = step
                heapq.heappush(heap, (step, n))
    return cost


def connection(levels, player):
    """(the fewest empty tiles joining some tile k < 40 to k + 40, or None if none can be joined;
    how many k are joined that cheaply)."""
    costs = [cheapest(levels, player, k)[k + HALF] for k in range(HALF)]
    costs = [c for c in costs if c is not None]
    if not costs:
        return None, 0
    return min(costs), costs.count(min(costs))


def capped(levels, player, cap):
    """`connection` as the kernels report it: (min(distance, cap), routes; 0 routes at the cap)."""
    d, routes = connection(levels, player)
    return (cap, 0) if d is None or d >= cap else (d, routes)


def evaluate(levels, turns_played, ply, weights=WEIGHTS, cap=12):
    """The alpha-beta evaluation (`search/evaluate.py`'s docstring) of a position with a player to
    move: the connection race now (and after the coming growth if it erupts a volcano), the
    equally short routes, and the tempo."""
    levels = [int(x) for x in levels]
    mover = reference.actor(turns_played + 1)
    blue, blue_routes = capped(levels, BLUE, cap)
    orange, orange_routes = capped(levels, ORANGE, cap)
    if mover == BLUE and blue <= 1:
        return WIN - ply - 1
    if mover == ORANGE and orange <= 1:
        return -(WIN - ply - 1)
    race = 2 * (orange - blue)
    if weights[GROWTH_LOOK] and any(abs(x) == MAX_LEVEL - 1 for x in levels):
        grown = reference.Position(levels[:], [abs(x) == MAX_LEVEL for x in levels], 2)  # turn 3: a growth
        reference.grow(grown)
        race = (orange - blue) + (capped(grown.levels, ORANGE, cap)[0] - capped(grown.levels, BLUE, cap)[0])
    score = int(weights[STEP]) * race // 2
    score += int(weights[ROUTE]) * (min(blue_routes, MAX_ROUTES) - min(orange_routes, MAX_ROUTES))
    tempo = weights[DOUBLE_MOVE] if (turns_played + 1) % 6 in (2, 5) else weights[SINGLE_MOVE]
    return score + int(tempo) * mover
