"""The rules of Volcanoes in fast pure Python: what plays on CodinGame, where there is no numba.

Exact to `referee/volcanoes/reference.py` (tested on random games and the 800 recorded ones), and
shaped for speed rather than for reading the rules:
- A board is a bytearray of 80 cells, cell = level + MAX_LEVEL (EMPTY; blue above, orange below).
  Copies are one C call, and a growth turn is one `translate`. No dormant flags: at every turn
  boundary a volcano is dormant exactly when its level is 4 (it erupted and nothing lowered it since).
- A win is only looked for where it can appear: a connection needs a tile that became owned this
  turn (pieces otherwise only leave the board), so only those tiles' components are searched, and a
  component joins a tile to its antipode when its bit mask meets itself shifted by 40. Playouts
  first ask a union-find of component masks, and flood only when it allows a win.
- `random_playout` plays on a padded copy (48 cells past the 80 real ones that no player may raise),
  so a 7-bit random number is a candidate tile without a range check: rejection sampling, uniform
  over the legal tiles, with no list of legal moves built.
"""

from __future__ import annotations

from itertools import compress
from random import Random

from referee.volcanoes.board import HALF, N_TILES, NEIGHBOURS, SHORTEST_CHAIN

# Constants, re-exported as the pure engine's names for them.
from referee.volcanoes.constants import BLUE, CYCLE, GROWTH, ORANGE  # noqa: F401
from referee.volcanoes.constants import BLUE_WINS, DRAW, ONGOING, ORANGE_WINS  # noqa: F401
from referee.volcanoes.constants import MAX_ERUPTION_PHASES, MAX_LEVEL, MAX_TURNS  # noqa: F401

# Who acts on each turn: ACTORS[turns_played] acts on turn turns_played + 1.
ACTORS = tuple(CYCLE[t % 6] for t in range(MAX_TURNS + 6))
TILES = range(N_TILES)

EMPTY = MAX_LEVEL  # the cell of an empty tile; a cell is its level + MAX_LEVEL, so never negative
BLUE_TOP, ORANGE_TOP = EMPTY + MAX_LEVEL, EMPTY - MAX_LEVEL  # dormant volcanoes (level MAX_LEVEL, -MAX_LEVEL)
# The hot loops below (eruptions, playouts) write cells as literals, which Python reads fastest: 4
# empty, 5-8 blue's levels 1-4, 3-0 orange's. They stand for these values.
assert (EMPTY, BLUE_TOP, ORANGE_TOP) == (4, 8, 0), "the literal cells of the hot loops need rewriting"
_PAD_CELL = 255  # past the board: no player may raise it

_NB = NEIGHBOURS
_BIT = tuple(1 << t for t in range(N_TILES))
WIN_FOR = {BLUE: BLUE_WINS, ORANGE: ORANGE_WINS}  # the outcome in which a player wins
_PAD = bytes([_PAD_CELL]) * (128 - N_TILES)


def _table(mapping):
    table = bytearray(range(256))
    for cell, value in mapping.items():
        table[cell] = value
    return bytes(table)


# A growth turn: every volcano below the top level rises one level towards it.
_GROWN = _table({EMPTY + sign * level: EMPTY + sign * (level + 1) for level in range(1, MAX_LEVEL) for sign in (1, -1)})


def actor(turn: int) -> int:
    """Who acts on 1-based turn `turn`: BLUE, ORANGE or GROWTH."""
    return CYCLE[(turn - 1) % 6]


def new_board() -> bytearray:
    return bytearray([EMPTY]) * N_TILES


def from_levels(levels) -> bytearray:
    """A board from 80 signed levels (blue positive)."""
    return bytearray(int(x) + EMPTY for x in levels)


def to_levels(board) -> list[int]:
    return [c - EMPTY for c in board[:N_TILES]]


# 1 where a cell is a legal move's: empty, or the player's volcano below the top level.
_LEGAL_FOR = {
    BLUE: bytes(1 if EMPTY <= c < BLUE_TOP else 0 for c in range(256)),
    ORANGE: bytes(1 if ORANGE_TOP < c <= EMPTY else 0 for c in range(256)),
}


def legal_moves(board, player: int) -> list[int]:
    """Empty tiles and the player's own volcanoes below the top level, in tile order."""
    return list(compress(TILES, board.translate(_LEGAL_FOR[player])))  # (C loops: a node's moves)


def is_legal(board, player: int, tile: int) -> bool:
    cell = board[tile]
    return EMPTY <= cell < BLUE_TOP if player > 0 else ORANGE_TOP < cell <= EMPTY


def _pushed_table():
    """The cell a tile's pushes in one phase of eruptions leave, indexed by cell * 16 + the number
    of blue volcanoes erupting beside it + 4 * the number of orange ones (a tile has three
    neighbours: two bits each): every push is summed against the level at the phase's start (an
    enemy piece is pushed four levels, so destroyed), a level pushed to or across zero is
    destroyed, and levels stop at the top. One lookup a tile replaces the sums and their cases."""
    table = bytearray(range(256)) * 16
    for cell in range(2 * MAX_LEVEL + 1):
        before = cell - EMPTY
        for code in range(16):
            after = before
            for owner, count in ((1, code & 3), (-1, code >> 2)):
                after += count * (owner if before * owner >= 0 else 4 * owner)
            if before and (before > 0) != (after > 0):
                after = 0
            table[cell * 16 + code] = EMPTY + max(-MAX_LEVEL, min(MAX_LEVEL, after))
    return bytes(table)


_PUSHED = _pushed_table()


def _erupt(board, erupting, fresh, emptied):
    """Resolve eruptions phase by phase from the tiles in `erupting`; tiles that go from empty to
    owned are appended to `fresh`, tiles whose piece is destroyed to `emptied` (either may hold a
    tile that changed again later). Returns the number of phases (stops once past the limit)."""
    nb, pushed = _NB, _PUSHED
    pushes = bytearray(N_TILES)  # each tile's pushes in a phase (blue's count + 4 * orange's), zero between
    phases = 0
    while erupting:
        phases += 1
        if phases > MAX_ERUPTION_PHASES:
            return phases
        touched = []
        for volcano in erupting:
            weight = 1 if board[volcano] > 4 else 4
            for n in nb[volcano]:
                if not pushes[n]:
                    touched.append(n)
                pushes[n] += weight
        erupting = []
        for n in touched:
            c = board[n]
            after = pushed[c << 4 | pushes[n]]
            pushes[n] = 0
            if after != c:
                board[n] = after
                if c == 4:
                    fresh.append(n)
                elif after == 4:
                    emptied.append(n)
                elif after == 8 or after == 0:
                    erupting.append(n)
    return phases


def _component(board, player, tile):
    """The bit mask of `tile`'s component among the player's volcanoes."""
    nb, bit = _NB, _BIT
    seen = bit[tile]
    stack = [tile]
    pop, push = stack.pop, stack.append
    if player > 0:
        while stack:
            for n in nb[pop()]:
                if board[n] > EMPTY and not seen & bit[n]:
                    seen |= bit[n]
                    push(n)
    else:
        while stack:
            for n in nb[pop()]:
                if board[n] < EMPTY and not seen & bit[n]:
                    seen |= bit[n]
                    push(n)
    return seen


def _outcome(board, fresh):
    """The outcome after a turn, given the tiles that became owned during it (no win before)."""
    blue = orange = False
    seen = 0
    for t in fresh:
        c = board[t]
        if c == EMPTY or seen & _BIT[t]:
            continue
        component = _component(board, 1 if c > EMPTY else -1, t)
        seen |= component
        if component & (component >> HALF):
            if c > EMPTY:
                blue = True
            else:
                orange = True
    if blue:
        return DRAW if orange else BLUE_WINS
    return ORANGE_WINS if orange else ONGOING


def connects(board, player: int) -> bool:
    """Whether the player's volcanoes join some tile to its antipode (a full search)."""
    seen = 0
    for t in TILES:
        if (board[t] - EMPTY) * player > 0 and not seen & _BIT[t]:
            component = _component(board, player, t)
            if component & (component >> HALF):
                return True
            seen |= component
    return False


def play(board, player: int, tile: int) -> int:
    """`player` raises `tile` (a legal move) in an ongoing game; returns the outcome."""
    c = board[tile]
    if c == EMPTY:
        board[tile] = EMPTY + player
        component = _component(board, player, tile)
        if component & (component >> HALF):
            return WIN_FOR[player]
        return ONGOING
    c += player
    board[tile] = c
    if c != BLUE_TOP and c != ORANGE_TOP:
        return ONGOING
    fresh = []
    if _erupt(board, [tile], fresh, []) > MAX_ERUPTION_PHASES:
        return DRAW
    return _outcome(board, fresh) if fresh else ONGOING


def _tiles_at(board, cell):
    """The tiles holding `cell`, found by C-speed scans (there are few)."""
    found = []
    i = board.find(cell)
    while i >= 0:
        found.append(i)
        i = board.find(cell, i + 1)
    return found


def grow(board) -> int:
    """The growth turn: every volcano below the top level rises one; returns the outcome."""
    erupting = _tiles_at(board, BLUE_TOP - 1) + _tiles_at(board, ORANGE_TOP + 1)
    board[:] = board.translate(_GROWN)
    if not erupting:
        return ONGOING
    fresh = []
    if _erupt(board, erupting, fresh, []) > MAX_ERUPTION_PHASES:
        return DRAW
    return _outcome(board, fresh) if fresh else ONGOING


def take_turn(board, turns_played: int, tile: int) -> int:
    """Play turn `turns_played + 1`: a growth, or its actor's move on `tile` (ignored on growth)."""
    who = ACTORS[turns_played]
    if who == GROWTH:
        return grow(board)
    return play(board, who, tile)


def after_move(board, turns_played: int, tile: int) -> tuple[bytearray, int, int]:
    """A copy of the board after the mover plays `tile` and the growth that may follow it (the
    searches fold a growth into the move before it), the turns then played and the outcome (a draw
    at the turn limit)."""
    board = bytearray(board)
    outcome = play(board, ACTORS[turns_played], tile)
    turns_played += 1
    if outcome == ONGOING and ACTORS[turns_played] == GROWTH:
        outcome = grow(board)
        turns_played += 1
    if outcome == ONGOING and turns_played >= MAX_TURNS:
        outcome = DRAW
    return board, turns_played, outcome


# --- Random playouts ------------------------------------------------------------------------

_rng = Random()


def _relabel(board, player, tile, node, par, cm):
    """Flood `tile`'s component exactly, give it a new union-find node; its bit mask."""
    nb, bit = _NB, _BIT
    k = len(par)
    par.append(k)
    seen = bit[tile]
    node[tile] = k
    stack = [tile]
    if player > 0:
        while stack:
            for n in nb[stack.pop()]:
                if board[n] > EMPTY and node[n] != k:
                    seen |= bit[n]
                    node[n] = k
                    stack.append(n)
    else:
        while stack:
            for n in nb[stack.pop()]:
                if board[n] < EMPTY and node[n] != k:
                    seen |= bit[n]
                    node[n] = k
                    stack.append(n)
    cm.append(seen)
    return seen


def _find(par, r):
    while par[r] != r:
        par[r] = r = par[par[r]]
    return r


def _after_eruption(board, fresh, node, par, cm):
    """Bring the union-find up to date with the tiles an eruption made owned; the outcome."""
    nb, bit = _NB, _BIT
    for t in fresh:
        if board[t] != EMPTY:
            k = len(par)
            par.append(k)
            cm.append(bit[t])
            node[t] = k
    blue = orange = False
    for t in fresh:
        x = board[t] - EMPTY
        if not x or (blue if x > 0 else orange):  # empty again, or its player has already won
            continue
        k = node[t]
        while par[k] != k:  # (_find, inlined here and below)
            par[k] = k = par[par[k]]
        m = cm[k]
        for n in nb[t]:
            if (board[n] - EMPTY) * x > 0:
                r = node[n]
                while par[r] != r:
                    par[r] = r = par[par[r]]
                if r != k:
                    par[r] = k
                    m |= cm[r]
        cm[k] = m
        if m & (m >> HALF):
            m = _relabel(board, 1 if x > 0 else -1, t, node, par, cm)
            if m & (m >> HALF):
                if x > 0:
                    blue = True
                else:
                    orange = True
    if blue:
        return DRAW if orange else BLUE_WINS
    return ORANGE_WINS if orange else ONGOING


def random_playout(
    board, turns_played: int, bits=_rng.getrandbits, max_turns: int = MAX_TURNS, played: tuple[list, list] | None = None
) -> int:
    """Play uniformly random legal moves from an ongoing position to the end and return the outcome
    (`board` is left alone). A game reaching `max_turns` is a draw; a player left without a legal
    move loses, as the referee forfeits it. `bits(7)` draws the candidate tiles; the tiles blue and
    orange play are appended to `played[0]` and `played[1]` (for all-moves-as-first statistics).

    Wins are found through a union-find of each player's components that only ever merges: pieces
    destroyed by eruptions stay in it, so a component's mask may be too big, never too small. Only
    when that mask holds a tile and its antipode is the component flooded exactly (and relabelled)."""
    board = bytearray(board[:N_TILES] + _PAD)
    if played is None:
        played = ([], [])
    blue_played, orange_played = played[0].append, played[1].append
    nb, bit = _NB, _BIT
    node = [0] * N_TILES
    par = []
    cm = []
    labelled = 0
    for t in TILES:
        c = board[t]
        if c != EMPTY and not labelled & bit[t]:
            labelled |= _relabel(board, 1 if c > EMPTY else -1, t, node, par, cm)
    for who in ACTORS[turns_played:max_turns]:
        if who == 0:
            if 7 in board or 1 in board:
                erupting = _tiles_at(board, 7) + _tiles_at(board, 1)
                board = board.translate(_GROWN)
                fresh = []
                if _erupt(board, erupting, fresh, []) > MAX_ERUPTION_PHASES:
                    return DRAW
                if fresh:
                    result = _after_eruption(board, fresh, node, par, cm)
                    if result:
                        return result
            else:
                board = board.translate(_GROWN)
            continue
        tries = 0
        if who > 0:
            while True:
                t = bits(7)
                c = board[t]
                if 4 <= c < 8:
                    break
                tries += 1
                if tries > 64 and not legal_moves(board, who):
                    return ORANGE_WINS
            blue_played(t)
            if c == 4:
                board[t] = 5
                k = len(par)
                par.append(k)
                m = bit[t]
                for n in nb[t]:
                    if board[n] > 4:
                        r = node[n]
                        while par[r] != r:
                            par[r] = r = par[par[r]]
                        if r != k:
                            par[r] = k
                            m |= cm[r]
                cm.append(m)
                node[t] = k
                if m & (m >> HALF):
                    m = _relabel(board, 1, t, node, par, cm)
                    if m & (m >> HALF):
                        return BLUE_WINS
                continue
        else:
            while True:
                t = bits(7)
                c = board[t]
                if 0 < c <= 4:
                    break
                tries += 1
                if tries > 64 and not legal_moves(board, who):
                    return BLUE_WINS
            orange_played(t)
            if c == 4:
                board[t] = 3
                k = len(par)
                par.append(k)
                m = bit[t]
                for n in nb[t]:
                    if board[n] < 4:
                        r = node[n]
                        while par[r] != r:
                            par[r] = r = par[par[r]]
                        if r != k:
                            par[r] = k
                            m |= cm[r]
                cm.append(m)
                node[t] = k
                if m & (m >> HALF):
                    m = _relabel(board, -1, t, node, par, cm)
                    if m & (m >> HALF):
                        return ORANGE_WINS
                continue
        c += who
        board[t] = c
        if c == 8 or c == 0:
            fresh = []
            if _erupt(board, [t], fresh, []) > MAX_ERUPTION_PHASES:
                return DRAW
            if fresh:
                result = _after_eruption(board, fresh, node, par, cm)
                if result:
                    return result
    return DRAW


# --- Knowledge for the search ---------------------------------------------------------------


# A player with fewer pieces than this cannot win by one placement (checked by counting, before any flood).
_FEWEST_TO_WIN = SHORTEST_CHAIN - 1


def winning_placements(board, player: int) -> list[int]:
    """The empty tiles where a placement by `player` joins a tile to its antipode, in tile order
    (a placement never erupts, so this is exact). Bit masks: each owned tile is labelled with its
    component's mask, and an empty tile wins when it and its neighbours' masks hold an antipodal
    pair; one flood per component, then a few ORs per empty tile."""
    if player > 0:
        if board.count(5) + board.count(6) + board.count(7) + board.count(8) < _FEWEST_TO_WIN:
            return []
    elif board.count(3) + board.count(2) + board.count(1) + board.count(0) < _FEWEST_TO_WIN:
        return []
    nb, bit = _NB, _BIT
    masks = [0] * N_TILES
    if player > 0:
        mine = [board[t] > EMPTY for t in TILES]
    else:
        mine = [board[t] < EMPTY for t in TILES]
    for t in TILES:
        if mine[t] and not masks[t]:
            mine[t] = False
            members = [t]
            m = bit[t]
            for x in members:  # grows while it is walked: a breadth-first flood
                for n in nb[x]:
                    if mine[n]:
                        mine[n] = False
                        members.append(n)
                        m |= bit[n]
            for x in members:
                masks[x] = m
    found = []
    for t in TILES:
        if board[t] == EMPTY:
            a, b, c = nb[t]
            m = bit[t] | masks[a] | masks[b] | masks[c]
            if m & (m >> HALF):
                found.append(t)
    return found
