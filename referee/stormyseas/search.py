"""Optimal Stormy Seas solutions by breadth-first search, in unit moves or in slides.

A state packs into one int64: bits 0-15 the 8 wave offsets (2 bits each), bits 16-17 the red boat's
heading, then 7 bits a boat for its anchor cell (row * 9 + column, rows 8-9 being the port): 18 + 7
x 6 = 60 bits, so cards with up to 6 boats (all known cards) use the numba kernel. A card with more
boats is searched with the plain-Python rules instead: exact, only slower.

The move graph is directed (a push is not undone by the opposite push), so the search keeps a parent
link for every state and rebuilds the path from them. The numba move generator `_step` is checked
against the plain-Python rules in rules.py by the tests.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np
from numba import njit

from referee.stormyseas.rules import (
    COLS,
    MAX_OFFSET,
    PORT_COL,
    RED,
    ROWS,
    STEPS,
    TURNS,
    Boat,
    Card,
    Move,
    Slide,
    State,
    is_won,
    legal_moves,
    slides_from_moves,
    try_move,
)

METRICS = ("units", "slides")
MAX_KERNEL_BOATS = 6
ACTIONS = tuple(STEPS) + TURNS  # action codes 0-7: U D L R, then the four turns
HEADINGS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # the red boat's stern-to-bow step: codes 0-3
_BOAT_SHIFT = 18
_EMPTY = -1


@dataclass(frozen=True)
class Solution:
    slides: list[Slide]
    units: int
    explored: int  # states the search stored

    @property
    def slide_count(self) -> int:
        return len(self.slides)


def solve(card: Card, metric: str = "units", *, rotation: bool = False, max_states: int = 200_000_000) -> Solution | None:
    """An optimal solution in `metric` ("units" or "slides"), or None when the card has none."""
    if metric not in METRICS:
        raise ValueError(f"metric is one of {METRICS}, not {metric!r}")
    if len(card.letters) > MAX_KERNEL_BOATS:
        return solve_reference(card, metric, rotation=rotation, max_states=max_states)
    patterns, lengths, drs, dcs = _arrays(card)
    codes, explored = _bfs(patterns, lengths, drs, dcs, encode(card, card.start), metric == "slides", rotation, max_states)
    if explored < 0:
        raise RuntimeError(f"search stopped after {max_states:,} states")
    if len(codes) == 0:
        return None
    moves = []
    for code in codes:
        piece, action, distance = code & 31, code >> 5 & 7, code >> 8
        moves += [_move_name(card, piece, action)] * (distance if metric == "slides" else 1)
    slides = slides_from_moves(moves)
    return Solution(slides, len(moves), int(explored))


def solve_reference(card: Card, metric: str = "units", *, rotation: bool = False, max_states: int = 10_000_000) -> Solution | None:
    """The same search over the plain-Python rules (slow; the oracle for the kernel, and the path for
    cards with more boats than a state key holds)."""
    parents: dict[State, tuple[State, Slide] | None] = {card.start: None}
    queue = deque([card.start])
    while queue:
        state = queue.popleft()
        for after, slide in _reference_successors(card, state, metric, rotation):
            if after in parents:
                continue
            parents[after] = (state, slide)
            if len(parents) > max_states:
                raise RuntimeError(f"search stopped after {max_states:,} states")
            if is_won(card, after):
                path = []
                while parents[after] is not None:
                    after, slide = parents[after]
                    path.append(slide)
                path.reverse()
                moves = [Move(s.piece, s.action) for s in path for _ in range(s.distance)]
                return Solution(slides_from_moves(moves), len(moves), len(parents))
            queue.append(after)
    return None


def _reference_successors(card: Card, state: State, metric: str, rotation: bool):
    for move, after in legal_moves(card, state, rotation=rotation):
        yield after, Slide(move.piece, move.action, 1)
        if metric == "slides" and move.action in STEPS:
            distance = 1
            while not is_won(card, after):
                after, _ = try_move(card, after, move, rotation=rotation)
                if after is None:
                    break
                distance += 1
                yield after, Slide(move.piece, move.action, distance)


# ---------------------------------------------------------------------------------------------
# Keys and the card as arrays


def encode(card: Card, state: State) -> int:
    """A state's int64 key (cards of up to MAX_KERNEL_BOATS boats)."""
    key = sum(offset << 2 * w for w, offset in enumerate(state.offsets))
    red = state.boats[0]
    key |= HEADINGS.index((red.drow, red.dcol)) << 16
    for j, boat in enumerate(state.boats):
        key |= (boat.row * COLS + boat.col) << _BOAT_SHIFT + 7 * j
    return key


def decode(card: Card, key: int) -> State:
    offsets = tuple(key >> 2 * w & 3 for w in range(ROWS))
    boats = []
    for j, letter in enumerate(card.letters):
        row, col = divmod(key >> _BOAT_SHIFT + 7 * j & 127, COLS)
        if letter == RED:
            drow, dcol = HEADINGS[key >> 16 & 3]
        else:
            start = card.start.boats[j]
            drow, dcol = start.drow, start.dcol
        boats.append(Boat(row, col, drow, dcol))
    return State(offsets, tuple(boats))


def _arrays(card: Card):
    patterns = np.array(card.patterns, dtype=np.int64)
    lengths = np.array(card.lengths, dtype=np.int64)
    drs = np.array([boat.drow for boat in card.start.boats], dtype=np.int64)
    dcs = np.array([boat.dcol for boat in card.start.boats], dtype=np.int64)
    return patterns, lengths, drs, dcs


def _move_name(card: Card, piece: int, action: int) -> Move:
    name = str(piece + 1) if piece < ROWS else card.letters[piece - ROWS]
    return Move(name, ACTIONS[action])


def kernel_successors(card: Card, state: State, *, rotation: bool = False) -> list[tuple[Move, State]]:
    """Every legal unit move by the numba kernel (for comparing with rules.legal_moves)."""
    patterns, lengths, drs, dcs = _arrays(card)
    keys, codes = _successor_keys(patterns, lengths, drs, dcs, encode(card, state), rotation)
    return [(_move_name(card, code & 31, code >> 5 & 7), decode(card, int(key))) for key, code in zip(keys, codes)]


# ---------------------------------------------------------------------------------------------
# The numba kernel: decode, one unit move, encode, breadth-first search


@njit(cache=True)
def _decode(key, drs, dcs, offs, rows, cols, hdr, hdc):
    for w in range(8):
        offs[w] = key >> (2 * w) & 3
    heading = key >> 16 & 3
    for j in range(len(rows)):
        cell = key >> (18 + 7 * j) & 127
        rows[j] = cell // 9
        cols[j] = cell % 9
        hdr[j] = drs[j]
        hdc[j] = dcs[j]
    # the red boat's heading: 0 up, 1 right, 2 down, 3 left
    hdr[0] = -1 if heading == 0 else (1 if heading == 2 else 0)
    hdc[0] = 1 if heading == 1 else (-1 if heading == 3 else 0)


@njit(cache=True)
def _encode(offs, rows, cols, hdr, hdc):
    key = 0
    for w in range(8):
        key |= offs[w] << (2 * w)
    if hdr[0] == -1:
        heading = 0
    elif hdc[0] == 1:
        heading = 1
    elif hdr[0] == 1:
        heading = 2
    else:
        heading = 3
    key |= heading << 16
    for j in range(len(rows)):
        key |= (rows[j] * 9 + cols[j]) << (18 + 7 * j)
    return key


@njit(cache=True)
def _other_boat_at(lengths, rows, cols, hdr, hdc, skip, r, c):
    for j in range(len(rows)):
        if j == skip:
            continue
        for k in range(lengths[j]):
            if rows[j] + k * hdr[j] == r and cols[j] + k * hdc[j] == c:
                return True
    return False


@njit(cache=True)
def _open(patterns, lengths, offs, rows, cols, hdr, hdc, j, r, c, port):
    """Boat j may enter cell (r, c): water (or the port) free of other boats."""
    if port and (r == 8 or r == 9) and c == 5:
        pass
    elif r < 0 or r >= 8 or c < 0 or c >= 9:
        return False
    elif (patterns[r] << offs[r]) >> c & 1:
        return False
    return not _other_boat_at(lengths, rows, cols, hdr, hdc, j, r, c)


@njit(cache=True)
def _push(patterns, lengths, offs, rows, cols, hdr, hdc, dc, first):
    """A sideways unit move of piece `first` (wave w < 8, boat 8 + j) and all it pushes."""
    nb = len(rows)
    moving_waves = 0  # bit masks: the closure so far ...
    moving_boats = 0
    todo_waves = 1 << first if first < 8 else 0  # ... and what it has not yet looked at
    todo_boats = 1 << (first - 8) if first >= 8 else 0
    while todo_waves or todo_boats:
        if todo_waves:
            w = _lowest_bit(todo_waves)
            todo_waves &= ~(1 << w)
            offset = offs[w] + dc
            if offset < 0 or offset > 2:
                return False
            moving_waves |= 1 << w
            covered = patterns[w] << offset
            for j in range(nb):
                if (moving_boats | todo_boats) >> j & 1:
                    continue
                for k in range(lengths[j]):
                    if rows[j] + k * hdr[j] == w and covered >> (cols[j] + k * hdc[j]) & 1:
                        todo_boats |= 1 << j
                        break
        else:
            j = _lowest_bit(todo_boats)
            todo_boats &= ~(1 << j)
            moving_boats |= 1 << j
            for k in range(lengths[j]):
                r = rows[j] + k * hdr[j]
                c = cols[j] + k * hdc[j] + dc
                if r >= 8 or c < 0 or c >= 9:  # in the port, or off the board
                    return False
                if not ((moving_waves | todo_waves) >> r & 1) and (patterns[r] << offs[r]) >> c & 1:
                    todo_waves |= 1 << r
    # boats do not push boats: a moving boat may not enter a standing boat's cell
    for j in range(nb):
        if not (moving_boats >> j & 1):
            continue
        for k in range(lengths[j]):
            r = rows[j] + k * hdr[j]
            c = cols[j] + k * hdc[j] + dc
            for i in range(nb):
                if moving_boats >> i & 1:
                    continue
                for m in range(lengths[i]):
                    if rows[i] + m * hdr[i] == r and cols[i] + m * hdc[i] == c:
                        return False
    for w in range(8):
        if moving_waves >> w & 1:
            offs[w] += dc
    for j in range(nb):
        if moving_boats >> j & 1:
            cols[j] += dc
    return True


@njit(cache=True)
def _lowest_bit(mask):
    i = 0
    while not (mask >> i & 1):
        i += 1
    return i


@njit(cache=True)
def _sail(patterns, lengths, offs, rows, cols, hdr, hdc, j, dr):
    """An up/down unit move of boat j alone; the red boat enters the port bow first."""
    port = j == 0 and cols[0] == 5 and hdr[0] == 1 and hdc[0] == 0
    for k in range(lengths[j]):
        r = rows[j] + k * hdr[j] + dr
        c = cols[j] + k * hdc[j]
        inside = False  # a cell the boat already holds
        for m in range(lengths[j]):
            if rows[j] + m * hdr[j] == r and cols[j] + m * hdc[j] == c:
                inside = True
        if not inside and not _open(patterns, lengths, offs, rows, cols, hdr, hdc, j, r, c, port):
            return False
    rows[j] += dr
    return True


@njit(cache=True)
def _turn(patterns, lengths, offs, rows, cols, hdr, hdc, clockwise, about_bow):
    """The red boat's quarter turn; the 2x2 square it sweeps must be open water."""
    sr, sc = rows[0], cols[0]
    br, bc = sr + hdr[0], sc + hdc[0]
    if sr >= 8 or br >= 8:
        return False
    pr, pc, orow, ocol = (br, bc, sr, sc) if about_bow else (sr, sc, br, bc)
    dr, dc = orow - pr, ocol - pc
    if clockwise:
        dr, dc = dc, -dr
    else:
        dr, dc = -dc, dr
    tr, tc = pr + dr, pc + dc
    kr, kc = tr + orow - pr, tc + ocol - pc
    if not _open(patterns, lengths, offs, rows, cols, hdr, hdc, 0, tr, tc, False):
        return False
    if not _open(patterns, lengths, offs, rows, cols, hdr, hdc, 0, kr, kc, False):
        return False
    if about_bow:
        rows[0], cols[0] = tr, tc
        hdr[0], hdc[0] = br - tr, bc - tc
    else:
        hdr[0], hdc[0] = dr, dc
    return True


@njit(cache=True)
def _won(rows, cols, hdr):
    return rows[0] == 8 and cols[0] == 5 and hdr[0] == 1


@njit(cache=True)
def _step(patterns, lengths, offs, rows, cols, hdr, hdc, piece, action):
    """Apply one unit move in place when legal; return whether it was. Pieces: waves 0-7, boat j at
    8 + j; actions: 0 up, 1 down, 2 left, 3 right, 4-7 the turns CS CB AS AB."""
    if piece < 8:
        if action == 2:
            return _push(patterns, lengths, offs, rows, cols, hdr, hdc, -1, piece)
        if action == 3:
            return _push(patterns, lengths, offs, rows, cols, hdr, hdc, 1, piece)
        return False
    j = piece - 8
    if j == 0 and _won(rows, cols, hdr):
        return False
    if action == 0:
        return _sail(patterns, lengths, offs, rows, cols, hdr, hdc, j, -1)
    if action == 1:
        return _sail(patterns, lengths, offs, rows, cols, hdr, hdc, j, 1)
    if action == 2:
        return _push(patterns, lengths, offs, rows, cols, hdr, hdc, -1, piece)
    if action == 3:
        return _push(patterns, lengths, offs, rows, cols, hdr, hdc, 1, piece)
    if j != 0:
        return False
    return _turn(patterns, lengths, offs, rows, cols, hdr, hdc, action < 6, action == 5 or action == 7)


@njit(cache=True)
def _successor_keys(patterns, lengths, drs, dcs, key, rotation):
    nb = len(lengths)
    offs = np.empty(8, np.int64)
    rows, cols, hdr, hdc = np.empty(nb, np.int64), np.empty(nb, np.int64), np.empty(nb, np.int64), np.empty(nb, np.int64)
    keys = np.empty(8 * (8 + nb), np.int64)
    codes = np.empty(8 * (8 + nb), np.int64)
    n = 0
    for piece in range(8 + nb):
        for action in range(8 if rotation else 4):
            _decode(key, drs, dcs, offs, rows, cols, hdr, hdc)
            if _step(patterns, lengths, offs, rows, cols, hdr, hdc, piece, action):
                keys[n] = _encode(offs, rows, cols, hdr, hdc)
                codes[n] = piece | action << 5
                n += 1
    return keys[:n], codes[:n]


@njit(cache=True)
def _slot(table, key):
    mask = len(table) - 1
    i = (key * -7046029254386353131) >> 29 & mask  # Fibonacci hashing
    while table[i] != -1 and table[i] != key:
        i = (i + 1) & mask
    return i


@njit(cache=True)
def _bfs(patterns, lengths, drs, dcs, start, slides, rotation, max_states):
    """Breadth-first search from `start` to the red boat in the port. Edges are unit moves, or with
    `slides` whole slides (every distance). Returns the path's move codes (piece | action << 5 |
    distance << 8) and the number of states stored (-1: stopped at max_states)."""
    nb = len(lengths)
    table = np.full(1 << 16, -1, np.int64)
    queue = np.empty(1 << 15, np.int64)
    parent = np.empty(1 << 15, np.int32)
    via = np.empty(1 << 15, np.int32)
    queue[0] = start
    parent[0] = -1
    via[0] = 0
    table[_slot(table, start)] = start
    n = 1
    offs0 = np.empty(8, np.int64)
    rows0, cols0, hdr0, hdc0 = np.empty(nb, np.int64), np.empty(nb, np.int64), np.empty(nb, np.int64), np.empty(nb, np.int64)
    offs = np.empty(8, np.int64)
    rows, cols, hdr, hdc = np.empty(nb, np.int64), np.empty(nb, np.int64), np.empty(nb, np.int64), np.empty(nb, np.int64)
    head = 0
    while head < n:
        _decode(queue[head], drs, dcs, offs0, rows0, cols0, hdr0, hdc0)
        _decode(queue[head], drs, dcs, offs, rows, cols, hdr, hdc)
        for piece in range(8 + nb):
            for action in range(8 if rotation else 4):
                if (piece < 8 and action != 2 and action != 3) or (action >= 4 and piece != 8):
                    continue
                # _step changes the arrays only when the move is legal: restore them only then
                distance = 0
                while _step(patterns, lengths, offs, rows, cols, hdr, hdc, piece, action):
                    distance += 1
                    key = _encode(offs, rows, cols, hdr, hdc)
                    i = _slot(table, key)
                    if table[i] != key:
                        if n == max_states:
                            return np.empty(0, np.int64), -1
                        if 2 * (n + 1) > len(table):
                            table = _grown(table)
                            i = _slot(table, key)
                        table[i] = key
                        if n == len(queue):
                            queue = _grow64(queue)
                            parent = _grow32(parent)
                            via = _grow32(via)
                        queue[n] = key
                        parent[n] = head
                        via[n] = piece | action << 5 | distance << 8
                        n += 1
                        if _won(rows, cols, hdr):
                            return _path(parent, via, n - 1), n
                    if not slides or action >= 4:
                        break
                if distance:
                    offs[:] = offs0
                    rows[:] = rows0
                    cols[:] = cols0
                    hdr[:] = hdr0
                    hdc[:] = hdc0
        head += 1
    return np.empty(0, np.int64), n


@njit(cache=True)
def _path(parent, via, last):
    length = 0
    i = last
    while parent[i] >= 0:
        length += 1
        i = parent[i]
    codes = np.empty(length, np.int64)
    i = last
    for k in range(length - 1, -1, -1):
        codes[k] = via[i]
        i = parent[i]
    return codes


@njit(cache=True)
def _grown(table):
    bigger = np.full(2 * len(table), -1, np.int64)
    for key in table:
        if key != -1:
            bigger[_slot(bigger, key)] = key
    return bigger


@njit(cache=True)
def _grow64(a):
    b = np.empty(2 * len(a), a.dtype)
    b[: len(a)] = a
    return b


@njit(cache=True)
def _grow32(a):
    b = np.empty(2 * len(a), a.dtype)
    b[: len(a)] = a
    return b
