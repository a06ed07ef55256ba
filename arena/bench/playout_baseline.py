"""The numba playout loop the search used before the bitboard core: a lean rules step and random
playouts over levels arrays, preallocated scratch space.

Every numba search now plays on the bitboard core (`bots/volcanoes/search/bitboard.py`, about four
times faster); no bot imports this engine. It stays, beside the bench that measures it, as the
baseline of `arena bench`'s "playouts/s numba" figures (the rate the bitboard core is compared
with), tested against the rules engine (tests/volcanoes/test_playout.py).

`step` plays one turn exactly as `rules.take_turn` does (tested against it and the reference), but
does less work:
- no allocation: eruptions and win checks use the rows of a `scratch` array made once;
- cheaper win checks: a turn can only connect a colour through a tile that turned to that colour
  (a plain move on an empty tile, or a tile an eruption took over), so only the components of
  those tiles are searched, and a move or growth without an eruption on an occupied tile connects
  nothing new;
- eruptions walk the list of touched tiles instead of the whole board.
It relies on the position before the turn being ongoing (neither colour connected), as in any game,
and on dormant == (|level| == 4) at turn boundaries, so a legal move is 0 <= level * player < 4.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from referee.volcanoes.board import HALF, N_TILES
from referee.volcanoes.rules import CYCLE, NEIGHBOUR_ARRAY  # CYCLE as the numba engine's array
from referee.volcanoes.constants import BLUE, GROWTH
from referee.volcanoes.constants import BLUE_WINS, DRAW, ONGOING, ORANGE_WINS
from referee.volcanoes.constants import MAX_ERUPTION_PHASES, MAX_LEVEL

from bots.volcanoes.search.bitboard import MIN_CHAIN

_NB = NEIGHBOUR_ARRAY

# Rows of the scratch array.
_DELTA, _TOUCHED, _TOUCHED_LIST, _ERUPTING, _CHANGED, _CHANGED_LIST, _MARK, _STACK, _MOVES, _COUNTERS = range(10)
PLAYED = 10  # the tiles each colour played in playouts: bit 1 blue, bit 2 orange (callers clear it)
_LABEL, _NORTH, _SOUTH = 11, 12, 13
N_ROWS = 14
_STAMP = 0  # _COUNTERS row: the last DFS stamp used


def new_scratch() -> np.ndarray:
    return np.zeros((N_ROWS, N_TILES), dtype=np.int64)


@njit(cache=True)
def _connects_from(levels, scratch, start, base):
    """Whether the component of `start` (an occupied tile) holds a tile and its antipode. Tiles
    marked with a stamp >= `base` were searched earlier in this check and are skipped."""
    mark = scratch[_MARK]
    if mark[start] >= base:
        return False
    scratch[_COUNTERS, _STAMP] += 1
    stamp = scratch[_COUNTERS, _STAMP]
    stack = scratch[_STACK]
    colour = 1 if levels[start] > 0 else -1
    mark[start] = stamp
    stack[0] = start
    size = 1
    while size > 0:
        size -= 1
        t = stack[size]
        if mark[(t + HALF) % N_TILES] == stamp:
            return True
        for j in range(3):
            n = _NB[t, j]
            if mark[n] != stamp and levels[n] * colour > 0:
                mark[n] = stamp
                stack[size] = n
                size += 1
    return False


@njit(cache=True)
def _erupt(levels, dormant, scratch, n_erupting):
    """Resolve the eruptions of the `n_erupting` tiles in the _ERUPTING row, as `rules._erupt`
    does; tiles that changed colour are added to the _CHANGED_LIST row. Returns
    (phases, number of changed tiles)."""
    delta = scratch[_DELTA]
    touched = scratch[_TOUCHED]
    touched_list = scratch[_TOUCHED_LIST]
    erupting = scratch[_ERUPTING]
    changed = scratch[_CHANGED]
    changed_list = scratch[_CHANGED_LIST]
    n_changed = 0
    phases = 0
    while n_erupting > 0:
        phases += 1
        if phases > MAX_ERUPTION_PHASES:
            break
        # Levels do not change until every eruption of the phase is counted.
        n_touched = 0
        for i in range(n_erupting):
            volcano = erupting[i]
            dormant[volcano] = True
            owner = 1 if levels[volcano] > 0 else -1
            for j in range(3):
                n = _NB[volcano, j]
                if touched[n] == 0:
                    touched[n] = 1
                    touched_list[n_touched] = n
                    n_touched += 1
                if levels[n] * owner >= 0:
                    delta[n] += owner
                else:
                    delta[n] += 4 if levels[n] < 0 else -4
        n_erupting = 0
        for k in range(n_touched):
            t = touched_list[k]
            before = np.int64(levels[t])
            after = before + delta[t]
            if before * after < 0:
                after = 0
            if after >= MAX_LEVEL or after <= -MAX_LEVEL:
                after = MAX_LEVEL if after > 0 else -MAX_LEVEL
                if -MAX_LEVEL < before < MAX_LEVEL:
                    erupting[n_erupting] = t
                    n_erupting += 1
            if after != 0 and before * after <= 0 and changed[t] == 0:
                changed[t] = 1
                changed_list[n_changed] = t
                n_changed += 1
            levels[t] = after
            if -MAX_LEVEL < after < MAX_LEVEL:
                dormant[t] = False
            delta[t] = 0
            touched[t] = 0
    return phases, n_changed


@njit(cache=True)
def _after_eruptions(levels, scratch, phases, n_changed):
    """The outcome after eruptions that changed the colour of `n_changed` tiles."""
    changed = scratch[_CHANGED]
    changed_list = scratch[_CHANGED_LIST]
    blue = False
    orange = False
    base = scratch[_COUNTERS, _STAMP] + 1
    for k in range(n_changed):
        t = changed_list[k]
        changed[t] = 0
        if levels[t] == 0:
            continue
        if levels[t] > 0:
            if not blue and _connects_from(levels, scratch, t, base):
                blue = True
        elif not orange and _connects_from(levels, scratch, t, base):
            orange = True
    if phases > MAX_ERUPTION_PHASES:
        return DRAW
    if blue and orange:
        return DRAW
    if blue:
        return BLUE_WINS
    if orange:
        return ORANGE_WINS
    return ONGOING


@njit(cache=True)
def play(levels, dormant, player, tile, scratch):
    """`player` raises `tile` (a legal move) in an ongoing position; returns the outcome."""
    before = levels[tile]
    levels[tile] += player
    if levels[tile] == MAX_LEVEL or levels[tile] == -MAX_LEVEL:
        scratch[_ERUPTING, 0] = tile
        phases, n_changed = _erupt(levels, dormant, scratch, 1)
        return _after_eruptions(levels, scratch, phases, n_changed)
    if before == 0 and _connects_from(levels, scratch, tile, scratch[_COUNTERS, _STAMP] + 1):
        return BLUE_WINS if player == BLUE else ORANGE_WINS
    return ONGOING


@njit(cache=True)
def grow(levels, dormant, scratch):
    """The growth turn in an ongoing position; returns the outcome."""
    erupting = scratch[_ERUPTING]
    n = 0
    for t in range(N_TILES):
        level = levels[t]
        if level != 0 and not dormant[t]:
            level += 1 if level > 0 else -1
            levels[t] = level
            if level == MAX_LEVEL or level == -MAX_LEVEL:
                erupting[n] = t
                n += 1
    if n == 0:
        return ONGOING
    phases, n_changed = _erupt(levels, dormant, scratch, n)
    return _after_eruptions(levels, scratch, phases, n_changed)


@njit(cache=True)
def step(levels, dormant, turn, tile, scratch):
    """Play 1-based turn `turn` (`tile` is ignored on a growth turn); returns the outcome."""
    who = CYCLE[(turn - 1) % 6]
    if who == GROWTH:
        return grow(levels, dormant, scratch)
    return play(levels, dormant, who, tile, scratch)


@njit(cache=True)
def legal_moves(levels, player, out):
    """The player's legal tiles in tile order, as `rules.legal_moves` (at a turn boundary)."""
    n = 0
    for t in range(N_TILES):
        level = levels[t] * player
        if 0 <= level < MAX_LEVEL:
            out[n] = t
            n += 1
    return n


@njit(cache=True)
def random_move(levels, player, scratch):
    """A uniformly random legal tile, -1 if there is none. A few random draws usually find one;
    the fallback draws from the full list, which keeps the distribution uniform."""
    for _ in range(8):
        t = np.random.randint(N_TILES)
        level = levels[t] * player
        if 0 <= level < MAX_LEVEL:
            return t
    moves = scratch[_MOVES]
    n = legal_moves(levels, player, moves)
    if n == 0:
        return -1
    return moves[np.random.randint(n)]


@njit(cache=True)
def winning_tile(levels, player, scratch):
    """An empty tile that would join a tile to its antipode for `player` if played (the lowest),
    or -1. A placement never erupts, so a tile returned is a win; wins by raising a volcano to
    an eruption are not looked for."""
    label = scratch[_LABEL]  # a tile's component, or -1
    north = scratch[_NORTH]  # a component's tiles k < 40, as bit k
    south = scratch[_SOUTH]  # a component's tiles k + 40, as bit k
    stack = scratch[_STACK]
    count = 0
    for t in range(N_TILES):
        if levels[t] * player > 0:
            count += 1
    if count < MIN_CHAIN - 1:
        return -1
    label[:] = -1
    n_components = 0
    for root in range(N_TILES):
        if label[root] >= 0 or levels[root] * player <= 0:
            continue
        north_bits = 0
        south_bits = 0
        label[root] = n_components
        stack[0] = root
        size = 1
        while size > 0:
            size -= 1
            t = stack[size]
            if t < HALF:
                north_bits |= 1 << t
            else:
                south_bits |= 1 << (t - HALF)
            for j in range(3):
                n = _NB[t, j]
                if label[n] < 0 and levels[n] * player > 0:
                    label[n] = n_components
                    stack[size] = n
                    size += 1
        north[n_components] = north_bits
        south[n_components] = south_bits
        n_components += 1
    for t in range(N_TILES):
        if levels[t] != 0:
            continue
        north_bits = (1 << t) if t < HALF else 0
        south_bits = (1 << (t - HALF)) if t >= HALF else 0
        for j in range(3):
            c = label[_NB[t, j]]
            if c >= 0:
                north_bits |= north[c]
                south_bits |= south[c]
        if north_bits & south_bits:
            return t
    return -1


@njit(cache=True)
def playout(levels, dormant, turns_played, max_turns, decisive, scratch):
    """Play uniformly random legal moves to the end from an ongoing position; return (outcome,
    turns played). With `decisive`, a player who can connect by a placement does, else one who
    can stop the opponent's connecting placement on the next move does. A game reaching
    `max_turns` is a draw; a player without a legal move loses. Moves are recorded in the
    PLAYED row."""
    played = scratch[PLAYED]
    turn = turns_played
    while turn < max_turns:
        turn += 1
        who = CYCLE[(turn - 1) % 6]
        if who == GROWTH:
            result = grow(levels, dormant, scratch)
        else:
            tile = -1
            if decisive:
                tile = winning_tile(levels, who, scratch)
                if tile < 0 and CYCLE[turn % 6] == -who:
                    tile = winning_tile(levels, -who, scratch)
            if tile < 0:
                tile = random_move(levels, who, scratch)
            if tile < 0:
                return (ORANGE_WINS if who == BLUE else BLUE_WINS), turn
            played[tile] |= 1 if who == BLUE else 2
            result = play(levels, dormant, who, tile, scratch)
        if result != ONGOING:
            return result, turn
    return DRAW, turn


@njit(cache=True)
def seed(value):
    """Seed numba's random generator (used by the playouts)."""
    np.random.seed(value)


@njit(cache=True)
def playouts_from(levels, dormant, turns_played, count, decisive, scratch):
    """Run `count` playouts from a position (a benchmark loop); returns the total turns played."""
    work_levels = levels.copy()
    work_dormant = dormant.copy()
    total = 0
    for _ in range(count):
        work_levels[:] = levels
        work_dormant[:] = dormant
        _, turn = playout(work_levels, work_dormant, turns_played, 200, decisive, scratch)
        total += turn - turns_played
    return total


def warm_up() -> None:
    levels = np.zeros(N_TILES, dtype=np.int8)
    dormant = np.zeros(N_TILES, dtype=np.bool_)
    scratch = new_scratch()
    seed(0)
    playouts_from(levels, dormant, 0, 1, False, scratch)
    step(levels, dormant, 1, 0, scratch)
