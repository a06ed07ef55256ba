"""The rules of Volcanoes as numba kernels over a small state; `reference.py` is the plain-Python
oracle they are tested against.

State: `levels` (int8[80], blue volcanoes positive, orange negative, 0 empty), `dormant`
(bool[80]) and the number of turns played. Kernels change the arrays in place; copying a position
is `levels.copy(), dormant.copy()`. Turns go blue, orange, growth, orange, blue, growth, ...
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import constants
from .board import HALF, N_TILES, NEIGHBOURS

# Constants, re-exported as the numba engine's names for them (frozen into its kernels).
from .constants import BLUE, GROWTH, ORANGE  # noqa: F401
from .constants import BLUE_WINS, DRAW, ONGOING, ORANGE_WINS  # noqa: F401
from .constants import MAX_ERUPTION_PHASES, MAX_LEVEL, MAX_TURNS  # noqa: F401

CYCLE = np.array(constants.CYCLE, dtype=np.int64)

# The neighbours as an array for the kernels (board.py stays free of numpy, for the bundle).
NEIGHBOUR_ARRAY = np.array(NEIGHBOURS, dtype=np.int64)
_NB = NEIGHBOUR_ARRAY  # a global array: numba freezes it into the compiled code


def new_state() -> tuple[np.ndarray, np.ndarray]:
    """The empty board: (levels, dormant)."""
    return np.zeros(N_TILES, dtype=np.int8), np.zeros(N_TILES, dtype=np.bool_)


@njit(cache=True)
def actor(turn):
    """Who acts on 1-based turn `turn`: BLUE (1), ORANGE (-1) or GROWTH (0)."""
    return CYCLE[(turn - 1) % 6]


@njit(cache=True)
def legal_moves(levels, dormant, player, out):
    """Write the player's legal tiles, in tile order, into `out`; return how many there are."""
    n = 0
    for t in range(N_TILES):
        level = levels[t] * player
        if level == 0 or (0 < level < MAX_LEVEL and not dormant[t]):
            out[n] = t
            n += 1
    return n


@njit(cache=True)
def is_legal(levels, dormant, player, tile):
    level = levels[tile] * player
    return level == 0 or (0 < level < MAX_LEVEL and not dormant[tile])


@njit(cache=True)
def _erupt(levels, dormant, erupting, n_erupting):
    """Resolve eruptions phase by phase from the `n_erupting` tiles in `erupting` (a scratch array
    of N_TILES entries); return the number of phases, stopping once past the limit."""
    start = np.empty(N_TILES, dtype=np.int8)
    delta = np.zeros(N_TILES, dtype=np.int8)
    touched = np.zeros(N_TILES, dtype=np.bool_)
    phases = 0
    while n_erupting > 0:
        phases += 1
        if phases > MAX_ERUPTION_PHASES:
            return phases
        start[:] = levels
        for i in range(n_erupting):
            volcano = erupting[i]
            dormant[volcano] = True
            owner = 1 if start[volcano] > 0 else -1
            for j in range(3):
                n = _NB[volcano, j]
                touched[n] = True
                if start[n] * owner >= 0:  # empty or friendly: one level more
                    delta[n] += owner
                else:  # enemy: four levels towards zero
                    delta[n] += 4 if start[n] < 0 else -4
        n_erupting = 0
        for t in range(N_TILES):
            if not touched[t]:
                continue
            before = np.int64(start[t])
            after = before + delta[t]
            if before * after < 0:
                after = 0  # pushed across zero: destroyed
            if after >= MAX_LEVEL or after <= -MAX_LEVEL:
                after = MAX_LEVEL if after > 0 else -MAX_LEVEL
                if -MAX_LEVEL < before < MAX_LEVEL:  # only a tile that reaches the top erupts
                    erupting[n_erupting] = t
                    n_erupting += 1
            levels[t] = after
            if -MAX_LEVEL < after < MAX_LEVEL:
                dormant[t] = False
            delta[t] = 0
            touched[t] = False
    return phases


@njit(cache=True)
def connects(levels, player):
    """Whether the player's volcanoes join some tile to its antipode."""
    component = np.full(N_TILES, -1, dtype=np.int64)
    stack = np.empty(N_TILES, dtype=np.int64)
    for root in range(N_TILES):
        if component[root] >= 0 or levels[root] * player <= 0:
            continue
        component[root] = root
        stack[0] = root
        size = 1
        while size > 0:
            size -= 1
            t = stack[size]
            for j in range(3):
                n = _NB[t, j]
                if component[n] < 0 and levels[n] * player > 0:
                    component[n] = root
                    stack[size] = n
                    size += 1
    for t in range(HALF):
        if component[t] >= 0 and component[t] == component[t + HALF]:
            return True
    return False


@njit(cache=True)
def outcome(levels, phases):
    """ONGOING, BLUE_WINS, ORANGE_WINS or DRAW after a turn that took `phases` eruption phases."""
    if phases > MAX_ERUPTION_PHASES:
        return DRAW
    blue = connects(levels, BLUE)
    orange = connects(levels, ORANGE)
    if blue and orange:
        return DRAW
    if blue:
        return BLUE_WINS
    if orange:
        return ORANGE_WINS
    return ONGOING


@njit(cache=True)
def play(levels, dormant, player, tile):
    """`player` raises `tile` (a legal move); returns the outcome."""
    levels[tile] += player
    phases = 0
    if levels[tile] == MAX_LEVEL or levels[tile] == -MAX_LEVEL:
        erupting = np.empty(N_TILES, dtype=np.int64)
        erupting[0] = tile
        phases = _erupt(levels, dormant, erupting, 1)
    return outcome(levels, phases)


@njit(cache=True)
def grow(levels, dormant):
    """The growth turn: every non-dormant volcano rises a level; returns the outcome."""
    erupting = np.empty(N_TILES, dtype=np.int64)
    n = 0
    for t in range(N_TILES):
        level = levels[t]
        if level != 0 and not dormant[t] and -MAX_LEVEL < level < MAX_LEVEL:
            level += 1 if level > 0 else -1
            levels[t] = level
            if level == MAX_LEVEL or level == -MAX_LEVEL:
                erupting[n] = t
                n += 1
    return outcome(levels, _erupt(levels, dormant, erupting, n))


@njit(cache=True)
def take_turn(levels, dormant, turn, tile):
    """Play 1-based turn `turn`: a growth, or the actor's move on `tile` (ignored on growth)."""
    who = actor(turn)
    if who == GROWTH:
        return grow(levels, dormant)
    return play(levels, dormant, who, tile)


@njit(cache=True)
def random_playout(levels, dormant, turns_played, max_turns, seed):
    """Play uniformly random legal moves to the end; return (outcome, turns played). A game that
    reaches `max_turns` is a draw; a player left without a legal move loses."""
    np.random.seed(seed)
    moves = np.empty(N_TILES, dtype=np.int64)
    turn = turns_played
    while turn < max_turns:
        turn += 1
        who = actor(turn)
        if who == GROWTH:
            result = grow(levels, dormant)
        else:
            n = legal_moves(levels, dormant, who, moves)
            if n == 0:  # cannot happen in practice; the referee forfeits such a player too
                return ORANGE_WINS if who == BLUE else BLUE_WINS, turn
            result = play(levels, dormant, who, moves[np.random.randint(n)])
        if result != ONGOING:
            return result, turn
    return DRAW, turn


def warm_up() -> None:
    """Compile (or load from cache) every kernel, outside any timed turn."""
    levels, dormant = new_state()
    moves = np.empty(N_TILES, dtype=np.int64)
    legal_moves(levels, dormant, BLUE, moves)
    is_legal(levels, dormant, BLUE, 0)
    take_turn(levels, dormant, 1, 0)
