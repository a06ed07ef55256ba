"""The rules of Volcanoes on bitboards, for the numba search: a turn is a few 64-bit operations.

A board is `uint64[N_WORDS]`: for each colour (0 blue, 1 orange) and level k = 1..MAX_LEVEL, the set
of that colour's tiles at level k (one-hot planes), each set two words (tiles 0-63, then 64-79); word
`(colour * MAX_LEVEL + k - 1) * 2 + w` (the last two words are never read: see `_set_level`). There
are no dormant flags: at a turn boundary a volcano is dormant exactly when its level is MAX_LEVEL (an
eruption phase limit ends the game as a draw), so:
- the legal moves are a mask (empty tiles and the player's levels 1-3), and a random move is the
  r-th set bit of that mask, with no list built;
- a growth turn moves each plane up one (level 3 becomes 4 and erupts): eight word moves;
- an eruption phase runs on every tile at once: each tile's count of erupting blue and orange
  neighbours is kept in two bit planes per colour, and the pushes are plane updates (a tile that
  both colours push, which is rare, takes its new level from a table, `_NEW_LEVEL`);
- a colour can only connect through a tile it gained this turn (an empty tile it took), only if it
  holds `SHORTEST_CHAIN` tiles and some tile and its antipode, and a placement only if it joins two of its
  neighbours or its antipode is owned, so the connection test runs only then: a flood fill over
  neighbour masks, from the gained tiles.
It relies on the position before a turn being ongoing. Exact to
`referee/volcanoes/reference.py` (tests/volcanoes/test_bitboard.py). Randomness is an explicit
xorshift64* state (`new_rng`), not numba's global generator.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from referee.volcanoes.board import HALF, N_TILES, NEIGHBOURS, SHORTEST_CHAIN
from referee.volcanoes.constants import BLUE, CYCLE, GROWTH
from referee.volcanoes.constants import BLUE_WINS, DRAW, ONGOING, ORANGE_WINS
from referee.volcanoes.constants import MAX_ERUPTION_PHASES, MAX_LEVEL

POSITION_WORDS = 2 * 2 * MAX_LEVEL  # the words that hold a position: two boards compare equal on these
N_WORDS = POSITION_WORDS + 2  # the last two: a plane for level 0, written to and never read (saves branches)
# The kernels below read the planes by their places (blue's levels 1-4 at words 0-7, orange's at 8-15).
assert MAX_LEVEL == 4, "the kernels' plane offsets need rewriting"
U = np.uint64
_ZERO = U(0)
_ONE = U(1)
_LOW8, _LOW16, _LOW32 = U(0xFF), U(0xFFFF), U(0xFFFFFFFF)
NORTH = U((1 << HALF) - 1)  # tiles 0-39 of the low word
HIGH_TILES = U((1 << (N_TILES - 64)) - 1)  # tiles 64-79 in the high word
_ALL = U(2**64 - 1)
MIN_CHAIN = SHORTEST_CHAIN  # the fewest tiles joining a tile to its antipode
_CYCLE = np.array(CYCLE, dtype=np.int64)
# _PLANE[level + MAX_LEVEL]: the first word of the plane that holds a tile at `level`.
_PLANE = np.array(
    [2 * MAX_LEVEL + 2 * (-x - 1) for x in range(-MAX_LEVEL, 0)]
    + [POSITION_WORDS]
    + [2 * (x - 1) for x in range(1, MAX_LEVEL + 1)],
    dtype=np.int64,
)

_NB = np.array(NEIGHBOURS, dtype=np.int64)
# Each tile's neighbours as a mask, per word.
_NB_MASK = np.zeros((N_TILES, 2), dtype=np.uint64)
for _t, _ns in enumerate(NEIGHBOURS):
    for _n in _ns:
        _NB_MASK[_t, _n >> 6] |= U(1 << (_n & 63))
# _SELECT8[b, r]: the position of the r-th set bit (from 0) of byte b.
_SELECT8 = np.zeros((256, 8), dtype=np.int64)
for _b in range(256):
    for _r, _i in enumerate(i for i in range(8) if _b >> i & 1):
        _SELECT8[_b, _r] = _i


def _new_level(before: int, blue: int, orange: int) -> int:
    """The level of a tile at `before` after `blue` blue and `orange` orange neighbours erupt,
    as reference._erupt computes it."""
    sign = (before > 0) - (before < 0)
    delta = 0
    for owner, count in ((1, blue), (-1, orange)):
        delta += count * (owner if before * owner >= 0 else -MAX_LEVEL * sign)
    after = before + delta
    if before * after < 0:
        after = 0
    return max(-MAX_LEVEL, min(MAX_LEVEL, after))


# _NEW_LEVEL[before + MAX_LEVEL, blue eruptions, orange eruptions] (0 to 3: a tile's neighbours)
_NEW_LEVEL = np.array(
    [[[_new_level(b, x, y) for y in range(4)] for x in range(4)] for b in range(-MAX_LEVEL, MAX_LEVEL + 1)],
    dtype=np.int64,
)

# Rows of the scratch array: for `winning_tile`, each component's tiles in the north and in the
# south (bit k: tile k, tile k + 40) and its empty neighbours (two words).
_C_NORTH, _C_SOUTH, _C_FRONT_LO, _C_FRONT_HI = range(4)
MOVES = 4  # free for callers (a list of moves)
PLAYED = 5  # the tiles each colour played in playouts: bit 1 blue, bit 2 orange (callers clear it)
N_ROWS = 6


def new_board() -> np.ndarray:
    return np.zeros(N_WORDS, dtype=np.uint64)


def new_scratch() -> np.ndarray:
    return np.zeros((N_ROWS, N_TILES), dtype=np.int64)


def new_rng(seed: int) -> np.ndarray:
    """The state of the playouts' random generator (never 0)."""
    return np.array([U((int(seed) * 0x9E3779B97F4A7C15 + 1) % 2**64 or 1)], dtype=np.uint64)


@intrinsic
def popcount(typingctx, x):
    """The number of set bits of a uint64 (LLVM's ctpop)."""
    if x != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.int64(types.uint64), codegen


@intrinsic
def lowest_bit(typingctx, x):
    """The index of the lowest set bit of a non-zero uint64 (LLVM's cttz)."""
    if x != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.int64(types.uint64), codegen


@njit(cache=True)
def _select(x, r):
    """The index of the r-th set bit (from 0) of x, which has more than r."""
    # Halve the range three times (branch-free: the bits are random), then a table.
    c = popcount(x & _LOW32)
    up = np.int64(r >= c)
    r -= c * up
    base = 32 * up
    x >>= U(base)
    c = popcount(x & _LOW16)
    up = np.int64(r >= c)
    r -= c * up
    x >>= U(16 * up)
    base += 16 * up
    c = popcount(x & _LOW8)
    up = np.int64(r >= c)
    r -= c * up
    x >>= U(8 * up)
    base += 8 * up
    return base + _SELECT8[np.int64(x & _LOW8), r]


@njit(cache=True)
def _draw_below(x, n):
    """(the xorshift64* state after x, a uniform integer in [0, n) from it), n < 2**32 (bias below
    n / 2**32): the top 32 bits of the output scaled to the range, no division."""
    x ^= x >> U(12)
    x ^= x << U(25)
    x ^= x >> U(27)
    r = (x * U(0x2545F4914F6CDD1D)) >> U(32)
    return x, np.int64((r * U(n)) >> U(32))


@njit(cache=True)
def random_below(rng, n):
    """A uniform integer in [0, n), n < 2**32, from the generator's state `rng` (see `_draw_below`)."""
    rng[0], r = _draw_below(rng[0], n)
    return r


@njit(cache=True)
def shuffle(items, n, rng):
    """Shuffle the first n of `items` in place (Fisher-Yates), drawing as `random_below` does, with
    the generator's state in a register for the whole loop rather than stored and loaded again at
    each draw."""
    x = rng[0]
    for i in range(n - 1, 0, -1):
        x, j = _draw_below(x, i + 1)
        items[i], items[j] = items[j], items[i]
    rng[0] = x


@njit(cache=True)
def south_bits(lo, hi):
    """Tiles 40-79 as bits 0-39 (tile k + 40 as bit k)."""
    return (lo >> U(HALF)) | (hi << U(64 - HALF))


@njit(cache=True)
def occupied(board, colour, w):
    """Word w of the colour's tiles."""
    b = colour * 8 + w
    return board[b] | board[b + 2] | board[b + 4] | board[b + 6]


@njit(cache=True)
def plane(board, player, level):
    """The player's tiles at `level` (1-4), as two words."""
    b = (0 if player == BLUE else 8) + 2 * (level - 1)
    return board[b], board[b + 1]


@njit(cache=True)
def holds(lo, hi, tile):
    """Whether the set (lo, hi) holds `tile`."""
    return (((lo if tile < 64 else hi) >> U(tile & 63)) & _ONE) != _ZERO


@njit(cache=True)
def level_at(board, tile):
    """The signed level of `tile` (blue positive)."""
    w = tile >> 6
    s = U(tile & 63)
    level = 0
    for k in range(4):  # branch-free: one plane at most holds the tile
        level += (k + 1) * (np.int64((board[2 * k + w] >> s) & _ONE) - np.int64((board[8 + 2 * k + w] >> s) & _ONE))
    return level


@njit(cache=True)
def from_levels(levels, board):
    """Fill `board` from 80 signed levels."""
    board[:] = 0
    for t in range(N_TILES):
        x = np.int64(levels[t])
        if x != 0:
            b = (0 if x > 0 else 8) + 2 * (abs(x) - 1) + (t >> 6)
            board[b] |= _ONE << U(t & 63)


@njit(cache=True)
def to_levels(board, levels):
    """Write the board's 80 signed levels into `levels`."""
    for t in range(N_TILES):
        levels[t] = level_at(board, t)


@njit(cache=True)
def legal_mask(board, player):
    """The player's legal tiles (empty, or its own below level 4), as two words."""
    own = 0 if player == BLUE else 8
    enemy = 8 - own
    lo = ~(board[enemy] | board[enemy + 2] | board[enemy + 4] | board[enemy + 6] | board[own + 6])
    hi = ~(board[enemy + 1] | board[enemy + 3] | board[enemy + 5] | board[enemy + 7] | board[own + 7])
    return lo, hi & HIGH_TILES


@njit(cache=True)
def legal_moves(board, player, out):
    """Write the player's legal tiles, in tile order, into `out`; return how many there are."""
    lo, hi = legal_mask(board, player)
    n = 0
    while lo:
        out[n] = lowest_bit(lo)
        n += 1
        lo &= lo - _ONE
    while hi:
        out[n] = 64 + lowest_bit(hi)
        n += 1
        hi &= hi - _ONE
    return n


@njit(cache=True)
def random_move(board, player, rng):
    """A uniformly random legal tile, -1 if there is none."""
    lo, hi = legal_mask(board, player)
    n_lo = popcount(lo)
    n = n_lo + popcount(hi)
    if n == 0:
        return -1
    r = random_below(rng, n)
    if r < n_lo:
        return _select(lo, r)
    return 64 + _select(hi, r - n_lo)


@njit(cache=True)
def _set_level(board, tile, before, after):
    w = tile >> 6
    m = _ONE << U(tile & 63)
    board[_PLANE[before + MAX_LEVEL] + w] ^= m
    board[_PLANE[after + MAX_LEVEL] + w] |= m


@njit(cache=True)
def _push_word(board, w, a0, a1, b0, b1):
    """One eruption phase on word w of the board, for the tiles that only one colour's eruptions
    touch: (a1, a0) counts each tile's blue eruptions in binary, (b1, b0) its orange ones. A push
    raises a colour's own tiles and empty tiles (capped at 4) and destroys the other colour's
    tiles. Returns (blue tiles now erupting, orange ones, tiles blue gained, tiles orange gained)."""
    p1, p2, p3, p4 = board[w], board[2 + w], board[4 + w], board[6 + w]
    q1, q2, q3, q4 = board[8 + w], board[10 + w], board[12 + w], board[14 + w]
    empty = ~(p1 | p2 | p3 | p4 | q1 | q2 | q3 | q4)
    by_blue = (a0 | a1) & ~(b0 | b1)
    by_orange = (b0 | b1) & ~(a0 | a1)
    # Blue pushes of 1, 2 or 3 on the tiles only blue touches.
    one, two, three = by_blue & a0 & ~a1, by_blue & a1 & ~a0, by_blue & a1 & a0
    gained_blue = empty & by_blue
    top_blue = (p1 & three) | (p2 & (two | three)) | (p3 & by_blue)
    board[w] = (p1 & ~by_blue & ~by_orange) | (gained_blue & one)
    board[2 + w] = (p2 & ~by_blue & ~by_orange) | (gained_blue & two) | (p1 & one)
    board[4 + w] = (p3 & ~by_blue & ~by_orange) | (gained_blue & three) | (p1 & two) | (p2 & one)
    board[6 + w] = (p4 & ~by_orange) | top_blue
    # The same for orange.
    one, two, three = by_orange & b0 & ~b1, by_orange & b1 & ~b0, by_orange & b1 & b0
    gained_orange = empty & by_orange
    top_orange = (q1 & three) | (q2 & (two | three)) | (q3 & by_orange)
    board[8 + w] = (q1 & ~by_orange & ~by_blue) | (gained_orange & one)
    board[10 + w] = (q2 & ~by_orange & ~by_blue) | (gained_orange & two) | (q1 & one)
    board[12 + w] = (q3 & ~by_orange & ~by_blue) | (gained_orange & three) | (q1 & two) | (q2 & one)
    board[14 + w] = (q4 & ~by_blue) | top_orange
    return top_blue, top_orange, gained_blue, gained_orange


@njit(cache=True)
def _mixed_word(board, w, a0, a1, b0, b1):
    """The tiles of word w that both colours' eruptions touch (rare), one by one with the
    table; none of them reaches level 4. Returns (tiles blue gained, tiles orange gained)."""
    gained_blue = gained_orange = _ZERO
    mixed = (a0 | a1) & (b0 | b1)
    while mixed:
        s = U(lowest_bit(mixed))
        mixed &= mixed - _ONE
        t = 64 * w + np.int64(s)
        blue = np.int64((a0 >> s) & _ONE) + 2 * np.int64((a1 >> s) & _ONE)
        orange = np.int64((b0 >> s) & _ONE) + 2 * np.int64((b1 >> s) & _ONE)
        before = level_at(board, t)
        after = _NEW_LEVEL[before + MAX_LEVEL, blue, orange]
        _set_level(board, t, before, after)
        if before == 0:
            if after > 0:
                gained_blue |= _ONE << s
            elif after < 0:
                gained_orange |= _ONE << s
    return gained_blue, gained_orange


@njit(cache=True)
def _count(erupting_lo, erupting_hi):
    """Each tile's number of neighbours in a set, in binary: (ones_lo, ones_hi, twos_lo, twos_hi)."""
    c0_lo = c0_hi = c1_lo = c1_hi = _ZERO
    x = erupting_lo
    while x:
        v = lowest_bit(x)
        x &= x - _ONE
        n_lo, n_hi = _NB_MASK[v, 0], _NB_MASK[v, 1]
        c1_lo |= c0_lo & n_lo  # at most 3 neighbours: no overflow
        c1_hi |= c0_hi & n_hi
        c0_lo ^= n_lo
        c0_hi ^= n_hi
    x = erupting_hi
    while x:
        v = 64 + lowest_bit(x)
        x &= x - _ONE
        n_lo, n_hi = _NB_MASK[v, 0], _NB_MASK[v, 1]
        c1_lo |= c0_lo & n_lo
        c1_hi |= c0_hi & n_hi
        c0_lo ^= n_lo
        c0_hi ^= n_hi
    return c0_lo, c0_hi, c1_lo, c1_hi


@njit(cache=True)
def _erupt(board, blue_lo, blue_hi, orange_lo, orange_hi):
    """Resolve eruptions phase by phase from the given blue and orange volcanoes, every tile of a
    phase at once. Returns (phases, the tiles blue gained (two words), the tiles orange gained);
    stops once past the phase limit."""
    gained_blue_lo = gained_blue_hi = gained_orange_lo = gained_orange_hi = _ZERO
    phases = 0
    while blue_lo | blue_hi | orange_lo | orange_hi:
        phases += 1
        if phases > MAX_ERUPTION_PHASES:
            break
        a0_lo, a0_hi, a1_lo, a1_hi = _count(blue_lo, blue_hi)
        b0_lo, b0_hi, b1_lo, b1_hi = _count(orange_lo, orange_hi)
        blue_lo, orange_lo, gb, go = _push_word(board, 0, a0_lo, a1_lo, b0_lo, b1_lo)
        gained_blue_lo |= gb
        gained_orange_lo |= go
        blue_hi, orange_hi, gb, go = _push_word(board, 1, a0_hi, a1_hi, b0_hi, b1_hi)
        gained_blue_hi |= gb
        gained_orange_hi |= go
        if (a0_lo | a1_lo) & (b0_lo | b1_lo):
            gb, go = _mixed_word(board, 0, a0_lo, a1_lo, b0_lo, b1_lo)
            gained_blue_lo |= gb
            gained_orange_lo |= go
        if (a0_hi | a1_hi) & (b0_hi | b1_hi):
            gb, go = _mixed_word(board, 1, a0_hi, a1_hi, b0_hi, b1_hi)
            gained_blue_hi |= gb
            gained_orange_hi |= go
    return phases, gained_blue_lo, gained_blue_hi, gained_orange_lo, gained_orange_hi


@njit(cache=True)
def _around(x_lo, x_hi):
    """The tiles next to a set's tiles (in the set or not)."""
    n_lo = n_hi = _ZERO
    while x_lo:
        t = lowest_bit(x_lo)
        x_lo &= x_lo - _ONE
        n_lo |= _NB_MASK[t, 0]
        n_hi |= _NB_MASK[t, 1]
    while x_hi:
        t = 64 + lowest_bit(x_hi)
        x_hi &= x_hi - _ONE
        n_lo |= _NB_MASK[t, 0]
        n_hi |= _NB_MASK[t, 1]
    return n_lo, n_hi


@njit(cache=True)
def component(t, o_lo, o_hi):
    """The component of tile t in the set (o_lo, o_hi), and the tiles around it (its tiles'
    neighbours, in the set or not): (comp_lo, comp_hi, around_lo, around_hi). Grown a layer at a
    time: the neighbours of a layer's tiles are looked up independently of each other, where a
    tile at a time waits on each lookup to know the next tile (half the time for a typical
    component)."""
    comp_lo = comp_hi = around_lo = around_hi = _ZERO
    if t < 64:
        comp_lo = _ONE << U(t)
    else:
        comp_hi = _ONE << U(t - 64)
    layer_lo, layer_hi = comp_lo, comp_hi
    while layer_lo | layer_hi:
        n_lo, n_hi = _around(layer_lo, layer_hi)
        around_lo |= n_lo
        around_hi |= n_hi
        layer_lo = n_lo & o_lo & ~comp_lo
        layer_hi = n_hi & o_hi & ~comp_hi
        comp_lo |= layer_lo
        comp_hi |= layer_hi
    return comp_lo, comp_hi, around_lo, around_hi


@njit(cache=True)
def connects_from(board, colour, seed_lo, seed_hi):
    """Whether a component of the colour's tiles that holds one of the seed tiles joins a tile to
    its antipode."""
    if not (seed_lo | seed_hi):
        return False
    o_lo = occupied(board, colour, 0)
    o_hi = occupied(board, colour, 1)
    seed_lo &= o_lo
    seed_hi &= o_hi
    if not (seed_lo | seed_hi) or popcount(o_lo) + popcount(o_hi) < MIN_CHAIN:
        return False
    if not (o_lo & NORTH & south_bits(o_lo, o_hi)):  # no tile with its antipode at all
        return False
    while seed_lo | seed_hi:
        t = lowest_bit(seed_lo) if seed_lo else 64 + lowest_bit(seed_hi)
        comp_lo, comp_hi, _, _ = component(t, o_lo, o_hi)
        if comp_lo & NORTH & south_bits(comp_lo, comp_hi):
            return True
        seed_lo &= ~comp_lo
        seed_hi &= ~comp_hi
    return False


@njit(cache=True)
def connects(board, colour):
    """Whether the colour (0 blue, 1 orange) joins some tile to its antipode."""
    return connects_from(board, colour, _ALL, _ALL)


@njit(cache=True)
def _after_eruptions(board, phases, blue_lo, blue_hi, orange_lo, orange_hi):
    if phases > MAX_ERUPTION_PHASES:
        return DRAW
    blue = connects_from(board, 0, blue_lo, blue_hi)
    orange = connects_from(board, 1, orange_lo, orange_hi)
    if blue and orange:
        return DRAW
    if blue:
        return BLUE_WINS
    if orange:
        return ORANGE_WINS
    return ONGOING


@njit(cache=True)
def play(board, player, tile, scratch):
    """`player` raises `tile` (a legal move) in an ongoing position; returns the outcome."""
    own = 0 if player == BLUE else 8
    w = tile >> 6
    m = _ONE << U(tile & 63)
    level = abs(level_at(board, tile))
    if level > 0:
        board[own + 2 * (level - 1) + w] ^= m
        board[own + 2 * level + w] |= m
        if level < 3:
            return ONGOING  # a volcano rose: nothing new for anyone
        lo = m if w == 0 else _ZERO
        hi = m if w == 1 else _ZERO
        if player == BLUE:
            phases, bl, bh, ol, oh = _erupt(board, lo, hi, _ZERO, _ZERO)
        else:
            phases, bl, bh, ol, oh = _erupt(board, _ZERO, _ZERO, lo, hi)
        return _after_eruptions(board, phases, bl, bh, ol, oh)
    board[own + w] |= m
    colour = 0 if player == BLUE else 1
    o_lo = occupied(board, colour, 0)
    o_hi = occupied(board, colour, 1)
    # A new chain passes through the new tile: with no own neighbour it has none, and with one it
    # needs the tile's antipode (the neighbour's component held no tile with its antipode).
    friends = popcount(_NB_MASK[tile, 0] & o_lo) + popcount(_NB_MASK[tile, 1] & o_hi)
    if friends == 0:
        return ONGOING
    if friends == 1:
        a = (tile + HALF) % N_TILES
        if not ((o_lo if a < 64 else o_hi) & (_ONE << U(a & 63))):
            return ONGOING
    if connects_from(board, colour, m if w == 0 else _ZERO, m if w == 1 else _ZERO):
        return BLUE_WINS if player == BLUE else ORANGE_WINS
    return ONGOING


@njit(cache=True)
def grow(board, scratch):
    """The growth turn in an ongoing position; returns the outcome. (`scratch` is unused: the
    same arguments as `play`.)"""
    blue_lo, blue_hi, orange_lo, orange_hi = board[4], board[5], board[12], board[13]  # level 3: erupts
    for b in range(0, 16, 8):  # blue, orange
        for w in range(2):
            board[b + 6 + w] |= board[b + 4 + w]
            board[b + 4 + w] = board[b + 2 + w]
            board[b + 2 + w] = board[b + w]
            board[b + w] = _ZERO
    if not (blue_lo | blue_hi | orange_lo | orange_hi):
        return ONGOING
    phases, bl, bh, ol, oh = _erupt(board, blue_lo, blue_hi, orange_lo, orange_hi)
    return _after_eruptions(board, phases, bl, bh, ol, oh)


@njit(cache=True)
def erupts_on_growth(board):
    """Whether the coming growth erupts a volcano: either colour has one at level 3."""
    return (board[4] | board[5] | board[12] | board[13]) != _ZERO


@njit(cache=True)
def step(board, turn, tile, scratch):
    """Play 1-based turn `turn` (`tile` is ignored on a growth turn); returns the outcome."""
    who = _CYCLE[(turn - 1) % 6]
    if who == GROWTH:
        return grow(board, scratch)
    return play(board, who, tile, scratch)


@njit(cache=True)
def winning_tile(board, player, scratch):
    """The lowest empty tile whose placement joins a tile to its antipode for `player`, or -1
    (wins by raising a volcano to an eruption are not looked for). No component holds a tile and
    its antipode yet, so a placement wins when its tile's antipode is in a component it touches,
    or when it touches two components that hold a tile and its antipode between them."""
    colour = 0 if player == BLUE else 1
    o_lo = occupied(board, colour, 0)
    o_hi = occupied(board, colour, 1)
    if popcount(o_lo) + popcount(o_hi) < MIN_CHAIN - 1:
        return -1
    e_lo = ~(o_lo | occupied(board, 1 - colour, 0))
    e_hi = ~(o_hi | occupied(board, 1 - colour, 1)) & HIGH_TILES
    # A placement adds one tile: the chain's ends are two owned tiles, or one and the placement.
    o_north, o_south = o_lo & NORTH, south_bits(o_lo, o_hi)
    if not (o_north & o_south or o_north & south_bits(e_lo, e_hi) or e_lo & NORTH & o_south):
        return -1
    north, south = scratch[_C_NORTH], scratch[_C_SOUTH]
    front_lo, front_hi = scratch[_C_FRONT_LO], scratch[_C_FRONT_HI]
    wins_lo = wins_hi = _ZERO
    n = 0
    left_lo, left_hi = o_lo, o_hi
    while left_lo | left_hi:  # each component: its tiles, then its empty neighbours
        t = lowest_bit(left_lo) if left_lo else 64 + lowest_bit(left_hi)
        comp_lo, comp_hi, around_lo, around_hi = component(t, o_lo, o_hi)
        left_lo &= ~comp_lo
        left_hi &= ~comp_hi
        around_lo &= e_lo
        around_hi &= e_hi
        c_north, c_south = comp_lo & NORTH, south_bits(comp_lo, comp_hi)
        # Empty neighbours whose antipode is in the component.
        wins_lo |= around_lo & (c_south | (c_north << U(HALF)))
        wins_hi |= around_hi & (c_north >> U(64 - HALF))
        for i in range(n):  # empty tiles next to this and an earlier component that pair up
            if (c_north & U(south[i])) | (c_south & U(north[i])):
                wins_lo |= around_lo & U(front_lo[i])
                wins_hi |= around_hi & U(front_hi[i])
        north[n], south[n] = np.int64(c_north), np.int64(c_south)
        front_lo[n], front_hi[n] = np.int64(around_lo), np.int64(around_hi)
        n += 1
    if wins_lo:
        return lowest_bit(wins_lo)
    if wins_hi:
        return 64 + lowest_bit(wins_hi)
    return -1


@njit(cache=True)
def playout(board, turns_played, max_turns, decisive, scratch, rng):
    """Play uniformly random legal moves to the end from an ongoing position; return (outcome,
    turns played). With `decisive`, a player who can connect by a placement does, else one who
    can stop the opponent's connecting placement on the next move does. A game reaching
    `max_turns` is a draw; a player without a legal move loses. Moves are recorded in the
    PLAYED row."""
    played = scratch[PLAYED]
    turn = turns_played
    # Whether the player to move is known to have no connecting placement: the last mover looked
    # for the opponent's and found none, then made a move that erupted nothing. Such a move adds no
    # tile to the opponent's components and only takes an empty tile, so the answer stands, and
    # the search is saved (a third of them).
    none_known = False
    while turn < max_turns:
        turn += 1
        who = _CYCLE[(turn - 1) % 6]
        if who == GROWTH:
            result = grow(board, scratch)
            none_known = False
        else:
            wins = blocks = -1
            if decisive:
                if not none_known:
                    wins = winning_tile(board, who, scratch)
                none_known = False
                if wins < 0 and _CYCLE[turn % 6] == -who:
                    blocks = winning_tile(board, -who, scratch)
                    none_known = blocks < 0
            tile = wins if wins >= 0 else blocks
            if tile < 0:
                tile = random_move(board, who, rng)
            if tile < 0:
                return (ORANGE_WINS if who == BLUE else BLUE_WINS), turn
            played[tile] |= 1 if who == BLUE else 2
            level = level_at(board, tile) * who
            if decisive and level == 0:
                # A placement, which connects exactly when it is the winning one that was searched
                # for (it cannot connect the opponent): no connection test.
                board[(0 if who == BLUE else 8) + (tile >> 6)] |= _ONE << U(tile & 63)
                if wins >= 0:
                    return (BLUE_WINS if who == BLUE else ORANGE_WINS), turn
                result = ONGOING
            else:
                if level == 3:  # raised to level 4: it erupts
                    none_known = False
                result = play(board, who, tile, scratch)
        if result != ONGOING:
            return result, turn
    return DRAW, turn


@njit(cache=True)
def playouts_from(board, turns_played, count, decisive, scratch, rng):
    """Run `count` playouts from a position (a benchmark loop); returns the total turns played."""
    work = board.copy()
    total = 0
    for _ in range(count):
        work[:] = board
        _, turn = playout(work, turns_played, 200, decisive, scratch, rng)
        total += turn - turns_played
    return total


def warm_up() -> None:
    """Compile (or load from cache) every kernel, outside any timed turn."""
    board, scratch, rng = new_board(), new_scratch(), new_rng(0)
    playouts_from(board, 0, 1, True, scratch, rng)
    step(board, 1, 0, scratch)
    levels = np.zeros(N_TILES, dtype=np.int8)
    from_levels(levels, board)
    to_levels(board, levels)
    legal_moves(board, BLUE, np.empty(N_TILES, dtype=np.int64))
    connects(board, 0)
