"""A learned move prior for the pure search: how promising each legal move of a position is, as a
sum of weights of its features, fitted offline to numba `mcts`'s long searches
(`bots/volcanoes/fit_prior.py`, on positions from `bots/volcanoes/make_prior_data.py`); the weights
are carried in `prior_weights.py`. The search turns the scores into its AMAF prior (`mcts`).

A position is read from the mover's side (`view`: its pieces above EMPTY, as blue's are), and each
move by one feature of each group:
- LOCAL: the tile (empty, or the mover's volcano at 1-3) and the multiset of its three neighbours
  (9 kinds: empty, own 1-4, enemy 1-4; the three never touch one another), by the phase: whether
  the growth comes next, between two moves of the mover, or after the opponent's move, between two
  of the opponent's;
- ANTIPODE: the tile's kind (empty or own) and its antipode's (9 kinds);
- RING: the own and enemy pieces among the six tiles two steps away;
- JOINS and BLOCKS: for a placement, how many distinct own (enemy) components it touches and the
  size of what they would make with it (their total, in buckets);
- CLASS: the tile's class (a face's centre, or one of its three corners: the board's symmetries
  exchange the 20 centres and the 60 corners) and its kind;
- RACE_OWN, RACE_ENEMY, RACE_BOTH: the connection race (`race.routes`): how much longer than the
  player's cheapest connection the cheapest one through the tile is (0-4, or none), for the mover
  and for the enemy (whose routes a placement blocks), each with the race's state (who is ahead, by
  how much), and the two together;
- GROWN_OWN, GROWN_ENEMY, GROWN_BOTH: the same on the board after the coming growth (what its
  eruptions destroy and claim), as if no one moved before it.
The race is measured on a board given apart (`Race`): the search measures it at its root and reads
every node of its tree with it.
`Model.scores` sums the same weights through tables made once: what the search calls at each new
node.
"""

from __future__ import annotations

from referee.volcanoes.board import HALF, N_TILES, NEIGHBOURS, NET

from . import rules
from .race import NONE, routes

EMPTY = rules.EMPTY
KINDS = 9  # a cell in the mover's view: 0-3 enemy levels 4-1, 4 empty, 5-8 own levels 1-4
# A cell seen by the other player (orange's view of the board puts its pieces above EMPTY).
MIRROR = bytes(rules.BLUE_TOP - c if c <= rules.BLUE_TOP else c for c in range(256))
BLUE_CELLS = bytes(1 if EMPTY < c <= rules.BLUE_TOP else 0 for c in range(256))
ORANGE_CELLS = bytes(1 if c < EMPTY else 0 for c in range(256))


def _multisets():
    """The index (0-164) of each sorted triple of kinds, for every order of it."""
    index = {}
    for a in range(KINDS):
        for b in range(a, KINDS):
            for c in range(b, KINDS):
                index[a, b, c] = len(index)
    table = [0] * KINDS**3
    for a in range(KINDS):
        for b in range(KINDS):
            for c in range(KINDS):
                table[(a * KINDS + b) * KINDS + c] = index[tuple(sorted((a, b, c)))]
    return table, len(index)


TRIPLE, N_TRIPLES = _multisets()
RING = tuple(
    tuple(sorted({m for n in NEIGHBOURS[t] for m in NEIGHBOURS[n]} - {t})) for t in range(N_TILES)
)  # the six tiles two steps away
CENTRE = tuple(1 if part == "A" else 0 for _, part in NET)
ANTI = tuple((t + HALF) % N_TILES for t in range(N_TILES))
SIZE_BUCKETS = (0, 1, 2, 2, 3, 3, 3, 4, 4, 4, 4)  # a component's size -> bucket (11 and more: 5)
N_SIZES = 6
GAPS = 6  # a route's excess over the cheapest: 0-4, or 5 for none (or more)
LEADS = 8  # the race's state: the enemy's cheapest less the mover's, -3 to 3 (6 or 7: one has none)

# The groups of features: name, count. A move has one feature of each group; each group's indices
# follow the previous groups'.
GROUPS = (
    ("local", 2 * 4 * N_TRIPLES),  # phase, tile (empty, own 1-3), neighbours
    ("antipode", 2 * KINDS),  # tile empty or own, antipode's kind
    ("ring", 2 * 7 * 7),  # tile empty or own, own pieces (0-6), enemy pieces (0-6) two steps away
    ("joins", 4 * N_SIZES + 1),  # own components touched (0-3), their merged size; raises: the last
    ("blocks", 4 * N_SIZES + 1),  # the same for the enemy's
    ("class", 4),  # a face's centre or corner, tile empty or own
    ("race_own", GAPS * LEADS),  # the mover's route through the tile, the race
    ("race_enemy", GAPS * LEADS),  # the enemy's route through the tile, the race
    ("race_both", GAPS * GAPS),  # both routes
    ("grown_own", GAPS * LEADS),  # the same three after the coming growth
    ("grown_enemy", GAPS * LEADS),
    ("grown_both", GAPS * GAPS),
)
OFFSETS = {}
_total = 0
for _name, _count in GROUPS:
    OFFSETS[_name] = _total
    _total += _count
N_FEATURES = _total


def view(board, mover: int) -> bytes:
    """The board from the mover's side: its pieces above EMPTY."""
    return bytes(board) if mover > 0 else board.translate(MIRROR)


def phase(turns: int) -> int:
    """1 when a growth follows the move and the mover plays again after it, 0 when the opponent plays
    next, then the growth, then the opponent again. Turns go blue, orange, growth, orange, blue,
    growth: whoever moves just before a growth moves again just after it."""
    return 1 if turns % 3 == 1 else 0


class Race:
    """Both players' routes (`race.routes`) on a board and on that board after a growth: for each,
    the cheapest connection through each tile, and the cheapest of all."""

    __slots__ = ("now", "grown", "weights")

    def __init__(self, board):
        grown = bytearray(board)
        rules.grow(grown)  # (an eruption may end the game there: its routes say so)
        self.now = (*routes(board, BLUE_CELLS), *routes(board, ORANGE_CELLS))
        self.grown = (*routes(grown, BLUE_CELLS), *routes(grown, ORANGE_CELLS))
        self.weights = {}  # (model, mover) -> each tile's weight from the races (`Model.scores`)

    def sides(self, mover: int) -> tuple:
        """For `mover`, now and after the growth: (own routes, own cheapest, the enemy's, the enemy's cheapest)."""
        if mover > 0:
            return self.now, self.grown
        return tuple((r[2], r[3], r[0], r[1]) for r in (self.now, self.grown))


def lead(own_best: int, enemy_best: int) -> int:
    if own_best == NONE or enemy_best == NONE:
        return 6 if enemy_best == NONE else 7
    return max(-3, min(3, enemy_best - own_best)) + 3


def gap(via: int, best: int) -> int:
    return GAPS - 1 if via == NONE else min(via - best, GAPS - 2)


def components(v: bytes):
    """Each tile's component label (-1 for empty tiles) and each label's size, both colours'
    components labelled apart."""
    label = [-1] * N_TILES
    sizes = []
    nb = NEIGHBOURS
    for t in range(N_TILES):
        c = v[t]
        if c == EMPTY or label[t] >= 0:
            continue
        k = len(sizes)
        label[t] = k
        members = [t]
        own = c > EMPTY
        for x in members:  # (grows while walked)
            for n in nb[x]:
                if label[n] < 0 and v[n] != EMPTY and (v[n] > EMPTY) == own:
                    label[n] = k
                    members.append(n)
        sizes.append(len(members))
    return label, sizes


# A cell's code for counting the ring in one sum: own pieces count 1, enemy pieces 8.
_RING_CODE = bytes(1 if EMPTY < c <= rules.BLUE_TOP else 8 if c < EMPTY else 0 for c in range(256))


class Model:
    """The weights in tables indexed by the cells themselves, for `scores` in the search: the sum of
    the same weights as `features` finds, with no tuple built."""

    def __init__(self, weights):
        w = list(weights)
        k = KINDS
        self.local = []
        for p in (0, 1):
            table = [0.0] * k**4
            for ct in range(EMPTY, EMPTY + 4):
                base = OFFSETS["local"] + (p * 4 + ct - EMPTY) * N_TRIPLES
                for rest in range(k**3):
                    table[ct * k**3 + rest] = w[base + TRIPLE[rest]]
            self.local.append(table)
        self.antipode = [
            w[OFFSETS["antipode"] + (0 if ct == EMPTY else 1) * k + x] for ct in range(k) for x in range(k)
        ]
        self.ring = [0.0] * (2 * 64)
        for kind in (0, 1):
            for own2 in range(7):
                for enemy2 in range(7 - own2):
                    self.ring[kind * 64 + own2 + 8 * enemy2] = w[OFFSETS["ring"] + (kind * 7 + own2) * 7 + enemy2]
        self.joins = w[OFFSETS["joins"] : OFFSETS["joins"] + 4 * N_SIZES + 1]
        self.blocks = w[OFFSETS["blocks"] : OFFSETS["blocks"] + 4 * N_SIZES + 1]
        self.tile = [w[OFFSETS["class"] + CENTRE[t] * 2 + kind] for t in range(N_TILES) for kind in (0, 1)]
        # The races, now and after the growth: for each state of the race, the weight of each pair
        # of gaps (own, enemy).
        self.race = [
            [
                [
                    w[OFFSETS[f"{prefix}_own"] + g_own * LEADS + lead]
                    + w[OFFSETS[f"{prefix}_enemy"] + g_enemy * LEADS + lead]
                    + w[OFFSETS[f"{prefix}_both"] + g_own * GAPS + g_enemy]
                    for g_own in range(GAPS)
                    for g_enemy in range(GAPS)
                ]
                for lead in range(LEADS)
            ]
            for prefix in ("race", "grown")
        ]

    def scores(self, board, turns: int, moves, race: Race) -> list[float]:
        """Each move's score (the sum of its features' weights), for the player to move after
        `turns` turns on a `pure.rules` board, with the race measured on it or on another board."""
        mover = rules.ACTORS[turns]
        v = view(board, mover)
        code = v.translate(_RING_CODE)
        label, sizes = components(v)
        local = self.local[phase(turns)]
        antipode, ring, joins, blocks, tile_w = self.antipode, self.ring, self.joins, self.blocks, self.tile
        nb, rings, anti = NEIGHBOURS, RING, ANTI
        raise_joins, raise_blocks = joins[-1], blocks[-1]
        buckets, n_buckets = SIZE_BUCKETS, len(SIZE_BUCKETS)
        by_race = race.weights.get((self, mover))
        if by_race is None:  # each tile's weight from the races, by its gaps: once for each mover
            by_race = [0.0] * N_TILES
            for table, (own_via, own_best, enemy_via, enemy_best) in zip(self.race, race.sides(mover), strict=True):
                w = table[lead(own_best, enemy_best)]
                for t in range(N_TILES):
                    by_race[t] += w[GAPS * gap(own_via[t], own_best) + gap(enemy_via[t], enemy_best)]
            race.weights[self, mover] = by_race
        out = []
        for t in moves:
            a, b, c = nb[t]
            ct = v[t]
            r = rings[t]
            counted = code[r[0]] + code[r[1]] + code[r[2]] + code[r[3]] + code[r[4]] + code[r[5]]
            s = local[((ct * 9 + v[a]) * 9 + v[b]) * 9 + v[c]] + antipode[ct * 9 + v[anti[t]]]
            s += by_race[t]
            if ct == EMPTY:
                s += ring[counted] + tile_w[2 * t]
                own_seen, own_size, enemy_seen, enemy_size = [], 1, [], 1
                for n in (a, b, c):
                    x = v[n]
                    if x > EMPTY:
                        k = label[n]
                        if k not in own_seen:
                            own_seen.append(k)
                            own_size += sizes[k]
                    elif x < EMPTY:
                        k = label[n]
                        if k not in enemy_seen:
                            enemy_seen.append(k)
                            enemy_size += sizes[k]
                s += joins[len(own_seen) * 6 + (buckets[own_size] if own_size < n_buckets else 5)]
                s += blocks[len(enemy_seen) * 6 + (buckets[enemy_size] if enemy_size < n_buckets else 5)]
            else:
                s += ring[64 + counted] + tile_w[2 * t + 1] + raise_joins + raise_blocks
            out.append(s)
        return out


# The weights travel as text, one character each (CJK, one UTF-16 unit as CodinGame counts): a
# weight in steps of 1/_SCALE, from U+4E00 + _ZERO on.
_BASE, _SCALE, _ZERO = 0x4E00, 64, 8192


def encode(weights) -> str:
    return "".join(chr(_BASE + _ZERO + max(-_ZERO, min(_ZERO - 1, round(float(w) * _SCALE)))) for w in weights)


def decode(text: str) -> list[float]:
    return [(ord(ch) - _BASE - _ZERO) / _SCALE for ch in text]
