"""Alpha-beta minimax over Volcanoes' irregular turn order, as numba kernels.

Values are from blue's point of view: blue's turns maximise, orange's minimise. Turns go blue,
orange, growth, orange, blue, growth, ... so a player often moves twice in a row; a growth is a
forced, deterministic ply that costs no depth (so every leaf is a player's turn, after any growth).
Positions are boards of the bitboard rules core (`bitboard.py`, the one `uct` and `mcts` search
on) in a stack, one row per ply: a move copies its row (18 words) to the next and plays there, so
nothing has to be undone.

Moves are ordered by the table's move, killers, eruptions, the cheapest routes through their tiles
(`ordering`) and history; below the root only a few quiet moves are searched (`QUIET_MOVES`).
Recursive calls pass every argument with the exact type of the first call: numba's cache of a
recursive function that casts its own arguments crashes when loaded.

The search stops itself after a node budget (`stats[NODE_LIMIT]`), setting `stats[ABORTED]`; the
caller reads the clock between such slices and turns time into nodes from the measured speed.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from referee.volcanoes.board import N_TILES
from referee.volcanoes.constants import (
    BLUE,
    BLUE_WINS,
    CYCLE,
    GROWTH,
    MAX_LEVEL,
    ONGOING,
    ORANGE,
    ORANGE_WINS,
)

from . import bitboard
from .evaluate import QUIET_MOVES, ROUTE_ORDER, WEIGHTS, evaluate, new_scratch
from .ordering import new_layers, routes_through
from .tt import EXACT, LOWER, UPPER, WIN, from_table, new_table, to_table, tt_probe, tt_store
from .zobrist import update_hash, zobrist_hash

MAX_PLY = 64  # rows of the position stack: depth plus the growths between
INFINITY = 2 * WIN
# stats slots
NODES, NODE_LIMIT, ABORTED = 0, 1, 2
N_STATS = 4
_TT_BONUS = 1 << 40
_KILLER_BONUS = 1 << 36
_ERUPTION_BONUS = 1 << 35
_ROUTE_SHIFT = 24  # a route through a tile outweighs any history
_QUIET_BELOW = 1 << _ROUTE_SHIFT
_CYCLE = np.array(CYCLE, dtype=np.int64)


class Workspace:
    """Every array one search needs, allocated once per bot and reused between turns."""

    def __init__(self, tt_bits: int):
        self.boards = np.zeros((MAX_PLY + 2, bitboard.N_WORDS), dtype=np.uint64)
        self.moves = np.zeros((MAX_PLY + 2, N_TILES), dtype=np.int64)
        self.order = np.zeros((MAX_PLY + 2, N_TILES), dtype=np.int64)
        self.keys, self.data = new_table(tt_bits)
        self.history = np.zeros((3, N_TILES), dtype=np.int64)
        self.killers = np.full((MAX_PLY + 2, 2), -1, dtype=np.int64)
        self.stats = np.zeros(N_STATS, dtype=np.int64)
        self.scratch = new_scratch()
        self.weights = WEIGHTS.copy()
        self.layers = new_layers()
        self.tile_score = np.zeros(N_TILES, dtype=np.int64)
        self.rules_scratch = bitboard.new_scratch()

    def arrays(self):
        return (
            self.boards,
            self.rules_scratch,
            self.moves,
            self.order,
            self.keys,
            self.data,
            self.history,
            self.killers,
            self.stats,
            self.scratch,
            self.weights,
            self.layers,
            self.tile_score,
        )


@njit(cache=True)
def terminal_value(result, ply):
    """The value of a finished game `ply` plies below the root."""
    if result == BLUE_WINS:
        return WIN - ply
    if result == ORANGE_WINS:
        return -(WIN - ply)
    return 0


@njit(cache=True)
def _spend(stats):
    """Count a node that does work (a table hit is nearly free); True once the budget is spent."""
    stats[NODES] += 1
    if stats[NODES] >= stats[NODE_LIMIT]:
        stats[ABORTED] = 1
        return True
    return False


@njit(cache=True)
def _add_routes(board, moves, scores, first, n, scratch, layers, tile_score):
    """Add to the scores of moves[first:n] the cheapest routes, either player's, through their
    tiles: to take them or to block them."""
    tile_score[:] = 0
    routes_through(board, BLUE, scratch, layers, tile_score)
    routes_through(board, ORANGE, scratch, layers, tile_score)
    for i in range(first, n):
        scores[i] += tile_score[moves[i]] << _ROUTE_SHIFT


@njit(cache=True)
def _search(
    bd,
    rs,
    mv,
    order,
    keys,
    data,
    history,
    killers,
    stats,
    scratch,
    weights,
    layers,
    tile_score,
    ply,
    depth,
    turns,
    alpha,
    beta,
    h,
    max_turns,
):
    """The value of row `ply` of the stack (after `turns` turns, key `h`) searched `depth` player
    moves deep within the window (alpha, beta); fail-soft: a value outside it is a bound."""
    if turns >= max_turns:
        return 0
    who = _CYCLE[turns % 6]
    if who == GROWTH:
        if _spend(stats):
            return 0
        bd[ply + 1] = bd[ply]
        result = bitboard.grow(bd[ply + 1], rs)
        if result != ONGOING:
            return terminal_value(result, ply + 1)
        h2 = update_hash(h, bd[ply], bd[ply + 1], turns)
        return _search(
            bd,
            rs,
            mv,
            order,
            keys,
            data,
            history,
            killers,
            stats,
            scratch,
            weights,
            layers,
            tile_score,
            np.int64(ply + 1),
            np.int64(depth),
            np.int64(turns + 1),
            np.int64(alpha),
            np.int64(beta),
            np.uint64(h2),
            np.int64(max_turns),
        )
    if depth <= 0 or ply >= MAX_PLY:
        if _spend(stats):
            return 0
        return evaluate(bd[ply], turns, ply, scratch, weights)

    found, value, tt_depth, flag, tt_move = tt_probe(keys, data, h)
    if found and tt_depth >= depth:
        value = from_table(value, ply)
        if flag == EXACT:
            return value
        if flag == LOWER and value >= beta:
            return value
        if flag == UPPER and value <= alpha:
            return value
    if _spend(stats):
        return 0

    board = bd[ply]
    n = bitboard.legal_moves(board, who, mv[ply])
    if n == 0:  # a player without a move forfeits
        return terminal_value(ORANGE_WINS if who == BLUE else BLUE_WINS, ply)
    side = who + 1
    # Every part of a move's score but its routes (the history changes in the subtrees below, so
    # it is read now). The routes are added just before the second move is picked when the table
    # has a move, which goes first whatever its routes: a cut-off by it saves their cost.
    routes_from = -1 if not weights[ROUTE_ORDER] else 0
    top_lo, top_hi = bitboard.plane(board, who, MAX_LEVEL - 1)  # a raise erupts them now
    next_lo, next_hi = bitboard.plane(board, who, MAX_LEVEL - 2)  # the next growth erupts them
    for i in range(n):
        t = mv[ply, i]
        score = history[side, t]
        if t == tt_move:
            score += _TT_BONUS
            if routes_from == 0:
                routes_from = 1
        elif t == killers[ply, 0] or t == killers[ply, 1]:
            score += _KILLER_BONUS
        elif bitboard.holds(top_lo, top_hi, t):
            score += _ERUPTION_BONUS
        elif bitboard.holds(next_lo, next_hi, t):
            score += _ERUPTION_BONUS >> 1
        order[ply, i] = score
    # A quiet move (on no cheapest route of either player, no eruption) leaves both distances
    # as they are, so quiet moves all look alike to the evaluation: a few of them suffice.
    quiet_left = weights[QUIET_MOVES] if weights[QUIET_MOVES] > 0 and weights[ROUTE_ORDER] else n

    maximising = who == BLUE
    best = -INFINITY if maximising else INFINITY
    best_move = -1
    alpha0, beta0 = alpha, beta
    for i in range(n):
        if i == routes_from:
            _add_routes(board, mv[ply], order[ply], i, n, scratch, layers, tile_score)
        # Selection sort, one step a move: most nodes cut off after a move or two.
        k = i
        for j in range(i + 1, n):
            if order[ply, j] > order[ply, k]:
                k = j
        t = mv[ply, k]
        mv[ply, k] = mv[ply, i]
        mv[ply, i] = t
        s = order[ply, k]
        order[ply, k] = order[ply, i]
        order[ply, i] = s
        if s < _QUIET_BELOW:
            if quiet_left == 0:
                break
            quiet_left -= 1

        bd[ply + 1] = board
        result = bitboard.play(bd[ply + 1], who, t, rs)
        if result != ONGOING:
            value = terminal_value(result, ply + 1)
        else:
            h2 = update_hash(h, board, bd[ply + 1], turns)
            value = _search(
                bd,
                rs,
                mv,
                order,
                keys,
                data,
                history,
                killers,
                stats,
                scratch,
                weights,
                layers,
                tile_score,
                np.int64(ply + 1),
                np.int64(depth - 1),
                np.int64(turns + 1),
                np.int64(alpha),
                np.int64(beta),
                np.uint64(h2),
                np.int64(max_turns),
            )
        if stats[ABORTED]:
            return 0
        if maximising:
            if value > best:
                best, best_move = value, t
                if value > alpha:
                    alpha = value
        else:
            if value < best:
                best, best_move = value, t
                if value < beta:
                    beta = value
        if alpha >= beta:
            if history[side, t] < _QUIET_BELOW >> 4:  # stays below the route bonus
                history[side, t] += depth * depth
            if killers[ply, 0] != t:
                killers[ply, 1] = killers[ply, 0]
                killers[ply, 0] = t
            break

    if best <= alpha0:
        flag = UPPER
    elif best >= beta0:
        flag = LOWER
    else:
        flag = EXACT
    tt_store(keys, data, h, to_table(best, ply), depth, flag, best_move)
    return best


@njit(cache=True)
def search_root(
    bd,
    rs,
    mv,
    order,
    keys,
    data,
    history,
    killers,
    stats,
    scratch,
    weights,
    layers,
    tile_score,
    turns,
    depth,
    root_moves,
    root_values,
    first,
    alpha,
    beta,
    max_turns,
):
    """Search root moves `first`, `first` + 1, ... (the root is row 0 of the stack, after `turns`
    turns; a board of the bitboard core) to `depth` within the window (alpha, beta), narrowing it as values come in; write each
    value to `root_values` (exact for a move that improves on the window, a bound otherwise) and
    return how many moves are done: fewer than all when the node budget ran out."""
    h = zobrist_hash(bd[0], turns)
    who = _CYCLE[turns % 6]
    for i in range(first, root_moves.size):
        bd[1] = bd[0]
        result = bitboard.play(bd[1], who, root_moves[i], rs)
        if result != ONGOING:
            value = terminal_value(result, 1)
        else:
            h2 = update_hash(h, bd[0], bd[1], turns)
            value = _search(
                bd,
                rs,
                mv,
                order,
                keys,
                data,
                history,
                killers,
                stats,
                scratch,
                weights,
                layers,
                tile_score,
                np.int64(1),
                np.int64(depth - 1),
                np.int64(turns + 1),
                np.int64(alpha),
                np.int64(beta),
                np.uint64(h2),
                np.int64(max_turns),
            )
        if stats[ABORTED]:
            return i
        root_values[i] = value
        if who == BLUE:
            alpha = max(alpha, value)
        else:
            beta = min(beta, value)
    return root_moves.size
