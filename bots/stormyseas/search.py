"""Optimal Stormy Seas solutions, in unit moves or in slides, ties broken by the other measure.

The cost of a solution is the pair (unit moves, slides), compared first by the chosen metric: the
search finds the fewest unit moves and, among those solutions, the fewest slides (or the other way
round). Its edges are whole slides (every piece, way and distance), so both counts are exact.

A state packs into one int64: bits 0-15 the 8 wave offsets (2 bits each), bits 16-17 the red boat's
heading, then 7 bits a boat for its anchor cell (row * 9 + column, rows 8-9 being the port): 18 + 7
x 6 = 60 bits, so cards with up to 6 boats (all known cards) use the numba kernel. A card with more
boats is searched with the plain-Python rules instead: exact, only slower.

The move graph is directed (a push is not undone by the opposite push), so the search keeps a parent
link for every state and rebuilds the path from them. The numba move generator `_step` is checked
against the plain-Python rules in rules.py by the tests, and the numba search against the plain one.
"""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass

import numpy as np
from numba import njit

from referee.stormyseas.rules import (
    COLS,
    METRICS,
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

MAX_KERNEL_BOATS = 6
ACTIONS = tuple(STEPS) + TURNS  # action codes 0-7: U D L R, then the four turns
HEADINGS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # the red boat's stern-to-bow step: codes 0-3
_BOAT_SHIFT = 18


@dataclass(frozen=True)
class Solution:
    slides: list[Slide]
    units: int
    explored: int  # states the search stored

    @property
    def slide_count(self) -> int:
        return len(self.slides)


def solve(
    card: Card, metric: str = "units", *, rotation: bool = False, max_states: int = 200_000_000
) -> Solution | None:
    """An optimal solution in `metric` ("units" or "slides"), the fewest of the other measure among
    those; None when the card has no solution."""
    if metric not in METRICS:
        raise ValueError(f"metric is one of {METRICS}, not {metric!r}")
    if len(card.letters) > MAX_KERNEL_BOATS:
        return solve_reference(card, metric, rotation=rotation, max_states=max_states)
    patterns, lengths, drs, dcs = _arrays(card)
    start = encode(card, card.start)
    codes, explored = _search(patterns, lengths, drs, dcs, start, metric == "slides", rotation, max_states)
    if explored < 0:
        raise RuntimeError(f"search stopped after {max_states:,} states")
    if len(codes) == 0:
        return None
    moves = []
    for code in codes:
        piece, action, distance = code & 31, code >> 5 & 7, code >> 8
        moves += [_move_name(card, piece, action)] * distance
    return Solution(slides_from_moves(moves), len(moves), int(explored))


def solve_reference(
    card: Card, metric: str = "units", *, rotation: bool = False, max_states: int = 10_000_000
) -> Solution | None:
    """The same optimum by Dijkstra's algorithm over the plain-Python rules (slow; the oracle for the
    kernel, and the search for cards with more boats than a state key holds)."""
    slides_first = metric == "slides"
    best: dict[State, tuple[int, int]] = {card.start: (0, 0)}
    parents: dict[State, tuple[State, Slide] | None] = {card.start: None}
    tie = itertools.count()  # states themselves are not compared
    heap = [(0, 0, next(tie), card.start)]
    while heap:
        first, second, _, state = heapq.heappop(heap)
        if (first, second) != best[state]:
            continue  # reached more cheaply since
        if is_won(card, state):
            path = []
            while parents[state] is not None:
                state, slide = parents[state]
                path.append(slide)
            moves = [Move(slide.piece, slide.action) for slide in reversed(path) for _ in range(slide.distance)]
            return Solution(slides_from_moves(moves), len(moves), len(best))
        for after, slide in _reference_slides(card, state, rotation):
            cost = (first + 1, second + slide.distance) if slides_first else (first + slide.distance, second + 1)
            if after in best and best[after] <= cost:
                continue
            best[after] = cost
            parents[after] = (state, slide)
            if len(best) > max_states:
                raise RuntimeError(f"search stopped after {max_states:,} states")
            heapq.heappush(heap, (*cost, next(tie), after))
    return None


def _reference_slides(card: Card, state: State, rotation: bool):
    """Every slide from `state` (each piece, way and distance) with the state it leads to."""
    for move, after in legal_moves(card, state, rotation=rotation):
        distance = 1
        while after is not None:
            yield after, Slide(move.piece, move.action, distance)
            if move.action not in STEPS or is_won(card, after):
                break
            after, _ = try_move(card, after, move, rotation=rotation)
            distance += 1


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
    return [
        (_move_name(card, code & 31, code >> 5 & 7), decode(card, int(key)))
        for key, code in zip(keys, codes, strict=True)
    ]


# ---------------------------------------------------------------------------------------------
# The numba kernel. A decoded state is one int64 array `s`: the wave offsets, each wave's block
# mask and each row's boat mask (bit c: column c; rows 8-9 are the port), then 4 numbers a boat:
# its anchor row and column and its step (drow, dcol).

_OFF, _BLK, _OCC, _BOATS = 0, 8, 16, 26


@njit(cache=True)
def _new_state(nb):
    return np.zeros(_BOATS + 4 * nb, np.int64)


@njit(cache=True)
def _decode(key, patterns, lengths, drs, dcs, s):
    for w in range(8):
        s[_OFF + w] = key >> (2 * w) & 3
        s[_BLK + w] = patterns[w] << s[_OFF + w]
    for r in range(10):
        s[_OCC + r] = 0
    heading = key >> 16 & 3
    for j in range(len(lengths)):
        b = _BOATS + 4 * j
        cell = key >> (18 + 7 * j) & 127
        s[b] = cell // 9
        s[b + 1] = cell % 9
        s[b + 2] = drs[j]
        s[b + 3] = dcs[j]
        if j == 0:  # the red boat's heading: 0 up, 1 right, 2 down, 3 left
            s[b + 2] = -1 if heading == 0 else (1 if heading == 2 else 0)
            s[b + 3] = 1 if heading == 1 else (-1 if heading == 3 else 0)
        _mark(s, lengths[j], j, 1)


@njit(cache=True)
def _encode(s, nb):
    key = 0
    for w in range(8):
        key |= s[_OFF + w] << (2 * w)
    drow, dcol = s[_BOATS + 2], s[_BOATS + 3]
    heading = 0 if drow == -1 else (1 if dcol == 1 else (2 if drow == 1 else 3))
    key |= heading << 16
    for j in range(nb):
        b = _BOATS + 4 * j
        key |= (s[b] * 9 + s[b + 1]) << (18 + 7 * j)
    return key


@njit(cache=True)
def _mark(s, length, j, on):
    """Set (on=1) or clear (on=0) boat j's cells in the row masks."""
    b = _BOATS + 4 * j
    for k in range(length):
        r = s[b] + k * s[b + 2]
        bit = 1 << (s[b + 1] + k * s[b + 3])
        if on:
            s[_OCC + r] |= bit
        else:
            s[_OCC + r] &= ~bit


@njit(cache=True)
def _holds(s, length, j, r, c):
    """Boat j has a cell at (r, c)."""
    b = _BOATS + 4 * j
    for k in range(length):
        if s[b] + k * s[b + 2] == r and s[b + 1] + k * s[b + 3] == c:
            return True
    return False


@njit(cache=True)
def _lowest_bit(mask):
    i = 0
    while not (mask >> i & 1):
        i += 1
    return i


@njit(cache=True)
def _push(patterns, lengths, s, dc, first):
    """A sideways unit move of piece `first` (wave w < 8, boat 8 + j) and all it pushes."""
    nb = len(lengths)
    moving_waves = 0  # bit masks: the closure so far ...
    moving_boats = 0
    todo_waves = 1 << first if first < 8 else 0  # ... and what it has not looked at yet
    todo_boats = 1 << (first - 8) if first >= 8 else 0
    while todo_waves or todo_boats:
        if todo_waves:
            w = _lowest_bit(todo_waves)
            todo_waves &= ~(1 << w)
            offset = s[_OFF + w] + dc
            if offset < 0 or offset > 2:
                return False
            moving_waves |= 1 << w
            hits = (patterns[w] << offset) & s[_OCC + w]  # boats the blocks would cover
            if hits:
                for j in range(nb):
                    if (moving_boats | todo_boats) >> j & 1:
                        continue
                    b = _BOATS + 4 * j
                    for k in range(lengths[j]):
                        if s[b] + k * s[b + 2] == w and hits >> (s[b + 1] + k * s[b + 3]) & 1:
                            todo_boats |= 1 << j
                            break
        else:
            j = _lowest_bit(todo_boats)
            todo_boats &= ~(1 << j)
            moving_boats |= 1 << j
            b = _BOATS + 4 * j
            for k in range(lengths[j]):
                r = s[b] + k * s[b + 2]
                c = s[b + 1] + k * s[b + 3] + dc
                if r >= 8 or c < 0 or c >= 9:  # in the port, or off the board
                    return False
                if not ((moving_waves | todo_waves) >> r & 1) and s[_BLK + r] >> c & 1:
                    todo_waves |= 1 << r
    # Boats do not push boats: a moving boat may enter only cells that moving boats leave.
    for j in range(nb):
        if not (moving_boats >> j & 1):
            continue
        b = _BOATS + 4 * j
        for k in range(lengths[j]):
            r = s[b] + k * s[b + 2]
            c = s[b + 1] + k * s[b + 3] + dc
            if s[_OCC + r] >> c & 1:
                vacated = False
                for i in range(nb):
                    if moving_boats >> i & 1 and _holds(s, lengths[i], i, r, c):
                        vacated = True
                if not vacated:
                    return False
    for w in range(8):
        if moving_waves >> w & 1:
            s[_OFF + w] += dc
            s[_BLK + w] = patterns[w] << s[_OFF + w]
    for j in range(nb):
        if moving_boats >> j & 1:
            _mark(s, lengths[j], j, 0)
    for j in range(nb):
        if moving_boats >> j & 1:
            s[_BOATS + 4 * j + 1] += dc
            _mark(s, lengths[j], j, 1)
    return True


@njit(cache=True)
def _open(s, r, c, port):
    """(r, c) is water (or, with `port`, the port) free of boats."""
    if port and (r == 8 or r == 9) and c == 5:
        pass
    elif r < 0 or r >= 8 or c < 0 or c >= 9:
        return False
    elif s[_BLK + r] >> c & 1:
        return False
    return not (s[_OCC + r] >> c & 1)


@njit(cache=True)
def _sail(lengths, s, j, dr):
    """An up/down unit move of boat j alone; the red boat enters the port bow first."""
    b = _BOATS + 4 * j
    port = j == 0 and s[b + 1] == 5 and s[b + 2] == 1 and s[b + 3] == 0
    for k in range(lengths[j]):
        r = s[b] + k * s[b + 2] + dr
        c = s[b + 1] + k * s[b + 3]
        if not _holds(s, lengths[j], j, r, c) and not _open(s, r, c, port):
            return False
    _mark(s, lengths[j], j, 0)
    s[b] += dr
    _mark(s, lengths[j], j, 1)
    return True


@njit(cache=True)
def _turn(s, clockwise, about_bow):
    """The red boat's quarter turn; the 2x2 square it sweeps must be open water."""
    sr, sc = s[_BOATS], s[_BOATS + 1]
    br, bc = sr + s[_BOATS + 2], sc + s[_BOATS + 3]
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
    if not (_open(s, tr, tc, False) and _open(s, kr, kc, False)):
        return False
    _mark(s, 2, 0, 0)
    if about_bow:
        s[_BOATS], s[_BOATS + 1] = tr, tc
        s[_BOATS + 2], s[_BOATS + 3] = br - tr, bc - tc
    else:
        s[_BOATS + 2], s[_BOATS + 3] = dr, dc
    _mark(s, 2, 0, 1)
    return True


@njit(cache=True)
def _won(s):
    return s[_BOATS] == 8


@njit(cache=True)
def _step(patterns, lengths, s, piece, action):
    """Apply one unit move to `s` in place when it is legal (else leave `s` as it was); return
    whether it was. Pieces: waves 0-7, boat j at 8 + j; actions: 0 up, 1 down, 2 left, 3 right,
    4-7 the turns CS CB AS AB."""
    if piece < 8:
        if action == 2 or action == 3:
            return _push(patterns, lengths, s, 2 * action - 5, piece)
        return False
    j = piece - 8
    if j == 0 and _won(s):
        return False
    if action < 2:
        return _sail(lengths, s, j, 2 * action - 1)
    if action < 4:
        return _push(patterns, lengths, s, 2 * action - 5, piece)
    if j != 0:
        return False
    return _turn(s, action < 6, action == 5 or action == 7)


@njit(cache=True)
def _successor_keys(patterns, lengths, drs, dcs, key, rotation):
    nb = len(lengths)
    base, s = _new_state(nb), _new_state(nb)
    _decode(key, patterns, lengths, drs, dcs, base)
    keys = np.empty(8 * (8 + nb), np.int64)
    codes = np.empty(8 * (8 + nb), np.int64)
    n = 0
    for piece in range(8 + nb):
        for action in range(8 if rotation else 4):
            s[:] = base
            if _step(patterns, lengths, s, piece, action):
                keys[n] = _encode(s, nb)
                codes[n] = piece | action << 5
                n += 1
    return keys[:n], codes[:n]


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
def _grow64(a):
    b = np.empty(2 * len(a), a.dtype)
    b[: len(a)] = a
    return b


@njit(cache=True)
def _grow32(a):
    b = np.empty(2 * len(a), a.dtype)
    b[: len(a)] = a
    return b


@njit(cache=True)
def _find(pairs, key):
    """The slot of `key` in an open-addressing table of (key, value) pairs, or of the empty slot
    where it would go."""
    mask = len(pairs) // 2 - 1
    i = (key * -7046029254386353131) >> 29 & mask  # Fibonacci hashing
    while pairs[2 * i] != -1 and pairs[2 * i] != key:
        i = (i + 1) & mask
    return i


@njit(cache=True)
def _grown_pairs(pairs):
    bigger = np.full(2 * len(pairs), -1, np.int64)
    for i in range(len(pairs) // 2):
        if pairs[2 * i] != -1:
            k = _find(bigger, pairs[2 * i])
            bigger[2 * k] = pairs[2 * i]
            bigger[2 * k + 1] = pairs[2 * i + 1]
    return bigger


@njit(cache=True)
def _estimate(key, slides_first, rotation):
    """A lower bound on the first cost from a state to the port, changing by at most a slide's own
    cost along any slide (so A* may settle states in order): the red boat's stern must reach row 9,
    column 6 (index 8, 5). In unit moves a unit move shifts the stern one cell (a turn: one cell
    each way, hence the larger of the two distances with rotation); in slides, a slide changes the
    stern's column or takes it into the port, not both."""
    cell = key >> 18 & 127
    rows, cols = 8 - cell // 9, abs(cell % 9 - 5)
    if slides_first:
        return (cols != 0) + (rows != 0 or cols != 0)
    if rotation:
        return max(rows, cols)
    return rows + cols


@njit(cache=True)
def _search(patterns, lengths, drs, dcs, start, slides_first, rotation, max_states):
    """Cheapest path over slide edges (every piece, way and distance) for the lexicographic cost
    (unit moves, slides), or (slides, unit moves) with `slides_first`.

    A* with buckets (Dial's algorithm): states wait in buckets by first cost so far + estimate
    (a ring of 32: a slide costs at most 9 and changes the estimate by at most as much), and within
    a bucket by estimate, largest first. Every way into a state comes from an earlier bucket or from
    a larger estimate in the same bucket, so a state's second cost is final when its turn comes.
    Returns the path's move codes and the number of states stored (-1: stopped at max_states)."""
    nb = len(lengths)
    ring, most = 32, 17  # estimates are 0..16
    port_cell = 8 * 9 + 5  # the red boat's stern cell when it is in the port
    pairs = np.full(1 << 17, -1, np.int64)  # hash table: key, state index
    keys = np.empty(1 << 15, np.int64)
    first = np.empty(1 << 15, np.int32)  # per state: the costs so far, the parent, the move
    second = np.empty(1 << 15, np.int32)
    parent = np.empty(1 << 15, np.int32)
    via = np.empty(1 << 15, np.int32)
    entry_state = np.empty(1 << 15, np.int32)  # bucket entries, linked per bucket
    entry_next = np.empty(1 << 15, np.int32)
    head = np.full((ring, most), -1, np.int32)
    keys[0], first[0], second[0], parent[0], via[0] = start, 0, 0, -1, 0
    i = _find(pairs, start)
    pairs[2 * i], pairs[2 * i + 1] = start, 0
    n = 1
    h = _estimate(start, slides_first, rotation)
    entry_state[0], entry_next[0], head[h % ring, h] = 0, -1, 0
    entries = 1
    waiting = 1  # entries in the ring
    won = -1  # the best state found with the red boat in the port
    base, s = _new_state(nb), _new_state(nb)
    total = h  # the bucket's first cost + estimate
    while waiting:
        for h in range(most - 1, -1, -1):
            if h == 0 and won != -1 and first[won] == total:
                return _path(parent, via, won), n
            e = head[total % ring, h]
            head[total % ring, h] = -1
            while e != -1:
                waiting -= 1
                index = entry_state[e]
                e = entry_next[e]
                cost = first[index]
                if cost != total - h:
                    continue  # a stale entry: the state moved to an earlier bucket
                _decode(keys[index], patterns, lengths, drs, dcs, base)
                s[:] = base
                for piece in range(8 + nb):
                    for action in range(8 if rotation else 4):
                        if (piece < 8 and action != 2 and action != 3) or (action >= 4 and piece != 8):
                            continue
                        distance = 0
                        while _step(patterns, lengths, s, piece, action):
                            distance += 1
                            there = cost + (1 if slides_first else distance)
                            there2 = second[index] + (distance if slides_first else 1)
                            key = _encode(s, nb)
                            i = _find(pairs, key)
                            if pairs[2 * i] == key:
                                j = pairs[2 * i + 1]
                                if there > first[j] or (there == first[j] and there2 >= second[j]):
                                    if action >= 4:
                                        break
                                    continue
                                moved = there < first[j]
                            else:
                                if n == max_states:
                                    return np.empty(0, np.int64), -1
                                if 4 * (n + 1) > len(pairs):
                                    pairs = _grown_pairs(pairs)
                                    i = _find(pairs, key)
                                if n == len(keys):
                                    keys = _grow64(keys)
                                    first, second = _grow32(first), _grow32(second)
                                    parent, via = _grow32(parent), _grow32(via)
                                j = n
                                n += 1
                                pairs[2 * i], pairs[2 * i + 1], keys[j] = key, j, key
                                moved = True
                            first[j], second[j] = there, there2
                            parent[j], via[j] = index, piece | action << 5 | distance << 8
                            if key >> 18 & 127 == port_cell:
                                if won == -1 or there < first[won] or (there == first[won] and there2 < second[won]):
                                    won = j
                            elif moved:  # into the bucket of its new first cost
                                if entries == len(entry_state):
                                    entry_state, entry_next = _grow32(entry_state), _grow32(entry_next)
                                hj = _estimate(key, slides_first, rotation)
                                slot = (there + hj) % ring
                                entry_state[entries] = j
                                entry_next[entries] = head[slot, hj]
                                head[slot, hj] = entries
                                entries += 1
                                waiting += 1
                            if action >= 4:
                                break
                        if distance:
                            s[:] = base
        total += 1
    if won != -1:
        return _path(parent, via, won), n
    return np.empty(0, np.int64), n
