"""Decisive playouts in pure Python: random playouts in which a player who can connect by a placement
does, and else one whose opponent moves next and could connect by a placement takes that tile
(what numba `mcts`'s playouts do, `bots/volcanoes/search/bitboard.py`).

Looking for winning placements afresh on every move (`rules.winning_placements`, a flood of the
board) would cost twenty random moves each. Here each player keeps a bit mask of the empty tiles
that MAY win (`threats`), updated only where a win can appear: a placement can only connect
through a component that just grew, or an empty tile that just appeared. A component C (a bit mask,
tiles k and k + 40 antipodal) makes a tile t a winning placement when t is next to C and t's
antipode lies in C, or when t is next to C and to another component holding the antipode of a tile
of C; the tiles next to a mask are ten table lookups (`_around`). Masks of the playout's union-find
may hold destroyed pieces (they only merge), so a candidate is checked before it is played: a few
ORs, then a flood only when those allow a win. A candidate that fails is dropped; a later change
that could make it win puts it back.
"""

from __future__ import annotations

from referee.volcanoes.board import HALF, N_TILES

from .rules import (
    _BIT,
    _GROWN,
    _NB,
    _PAD,
    ACTORS,
    BLUE_WINS,
    DRAW,
    EMPTY,
    MAX_ERUPTION_PHASES,
    MAX_TURNS,
    ORANGE_WINS,
    TILES,
    _after_eruption,
    _component,
    _erupt,
    _find,
    _relabel,
    _tiles_at,
    legal_moves,
)

_LOW = (1 << HALF) - 1
_BYTES = (N_TILES + 7) // 8


def _around_tables():
    """For each byte of a mask, the tiles next to any tile of that byte's value (256 masks a byte)."""
    tables = []
    for first in range(0, 8 * _BYTES, 8):
        table = [0] * 256
        for value in range(1, 256):
            low = value & -value
            tile = first + low.bit_length() - 1
            near = 0
            if tile < N_TILES:
                for n in _NB[tile]:
                    near |= 1 << n
            table[value] = table[value ^ low] | near
        tables.append(table)
    return tuple(tables)


_AROUND = _around_tables()
_A0, _A1, _A2, _A3, _A4, _A5, _A6, _A7, _A8, _A9 = _AROUND
# A connection holds at least this many tiles; a lone component this much smaller cannot be
# completed by one tile.
_FEWEST_AROUND = 11


def _around(mask: int) -> int:
    """The tiles next to some tile of `mask` (mask's own tiles among them when adjacent)."""
    b = mask.to_bytes(_BYTES, "little")  # (unrolled: this runs after most placements of a playout)
    return (
        _A0[b[0]]
        | _A1[b[1]]
        | _A2[b[2]]
        | _A3[b[3]]
        | _A4[b[4]]
        | _A5[b[5]]
        | _A6[b[6]]
        | _A7[b[7]]
        | _A8[b[8]]
        | _A9[b[9]]
    )


def _threats_of(mask: int, own: int, node, par, cm) -> int:
    """Tiles that may connect component `mask` by one placement (a superset; `own`: every tile of
    its player, exact)."""
    if mask & (mask >> HALF):
        # A mask that holds destroyed pieces may hold a pair the pieces left no longer join (a real
        # connection would have ended the game): any tile next to it may be the one that joins them.
        return _around(mask)
    anti = (mask >> HALF) | ((mask & _LOW) << HALF)
    others = anti & own & ~mask
    if not others and bin(mask).count("1") < _FEWEST_AROUND:
        return 0
    near = _around(mask)
    found = near & anti
    while others:
        other = cm[_find(par, node[(others & -others).bit_length() - 1])]
        found |= near & _around(other)
        others &= ~other
    return found


def _wins_at(board, player: int, tile: int, node, par, cm) -> bool:
    """Whether `player` placing on empty `tile` connects: the union-find's masks first (never too
    small), a flood only when they allow it."""
    m = _BIT[tile]
    for n in _NB[tile]:
        if (board[n] - EMPTY) * player > 0:
            m |= cm[_find(par, node[n])]
    if not m & (m >> HALF):
        return False
    board[tile] = EMPTY + player
    m = _component(board, player, tile)
    board[tile] = EMPTY
    return bool(m & (m >> HALF))


def _winning_tile(board, player: int, threats, node, par, cm) -> int:
    """A tile where `player` connects by a placement, or -1; drops the candidates that do not."""
    candidates = threats[player]
    while candidates:
        low = candidates & -candidates
        candidates ^= low
        tile = low.bit_length() - 1
        if board[tile] == EMPTY and _wins_at(board, player, tile, node, par, cm):
            return tile
        threats[player] ^= low
    return -1


def decisive_playout(
    board, turns_played: int, bits, max_turns: int = MAX_TURNS, played: tuple[list, list] | None = None
) -> int:
    """`rules.random_playout`, but a player takes a winning placement when it has one, and else,
    when the opponent moves next and has one, takes that tile. The same arguments and result."""
    board = bytearray(board[:N_TILES] + _PAD)
    if played is None:
        played = ([], [])
    moves_of = (None, played[0].append, played[1].append)  # indexed by player: 1 blue, -1 orange
    nb, bit = _NB, _BIT
    node = [0] * N_TILES
    par = []
    cm = []
    own = [0, 0, 0]  # indexed by player: every tile it owns, exact
    threats = [0, 0, 0]  # indexed by player: tiles where a placement may connect
    labelled = 0
    for t in TILES:
        c = board[t]
        if c != EMPTY and not labelled & bit[t]:
            player = 1 if c > EMPTY else -1
            m = _relabel(board, player, t, node, par, cm)
            labelled |= m
            own[player] |= m
    for player in (1, -1):
        mine = own[player]
        while mine:
            m = cm[node[(mine & -mine).bit_length() - 1]]
            threats[player] |= _threats_of(m, own[player], node, par, cm)
            mine &= ~m
    for turn in range(turns_played, max_turns):
        who = ACTORS[turn]
        if who == 0:
            if 7 in board or 1 in board:
                erupting = _tiles_at(board, 7) + _tiles_at(board, 1)
                board = board.translate(_GROWN)
                result = _resolve(board, erupting, own, threats, node, par, cm)
                if result:
                    return result
            else:
                board = board.translate(_GROWN)
            continue
        t = -1
        if threats[who]:
            t = _winning_tile(board, who, threats, node, par, cm)
            if t >= 0:
                moves_of[who](t)
                return BLUE_WINS if who > 0 else ORANGE_WINS
        if threats[-who] and ACTORS[turn + 1] == -who:
            t = _winning_tile(board, -who, threats, node, par, cm)
        if t < 0:
            tries = 0
            if who > 0:
                while True:
                    t = bits(7)
                    if 4 <= board[t] < 8:
                        break
                    tries += 1
                    if tries > 64 and not legal_moves(board, who):
                        return ORANGE_WINS
            else:
                while True:
                    t = bits(7)
                    if 0 < board[t] <= 4:
                        break
                    tries += 1
                    if tries > 64 and not legal_moves(board, who):
                        return BLUE_WINS
        moves_of[who](t)
        c = board[t]
        if c == EMPTY:
            board[t] = EMPTY + who
            k = len(par)
            par.append(k)
            m = bit[t]
            for n in nb[t]:
                if (board[n] - EMPTY) * who > 0:
                    r = node[n]
                    while par[r] != r:  # (rules._find, inlined)
                        par[r] = r = par[par[r]]
                    if r != k:
                        par[r] = k
                        m |= cm[r]
            cm.append(m)
            node[t] = k
            own[who] |= bit[t]
            # (no connection: a winning placement would have been taken above)
            threats[who] |= _threats_of(m, own[who], node, par, cm)
            continue
        c += who
        board[t] = c
        if c == 8 or c == 0:
            result = _resolve(board, [t], own, threats, node, par, cm)
            if result:
                return result
    return DRAW


def _resolve(board, erupting, own, threats, node, par, cm) -> int:
    """Erupt `erupting` on `board`, bring the union-find, the owned tiles and the threats up to
    date; the outcome."""
    fresh = []
    emptied = []
    if _erupt(board, erupting, fresh, emptied) > MAX_ERUPTION_PHASES:
        return DRAW
    if emptied:
        # Tiles emptied by the eruption: they may now be placements that connect, for either player.
        mask = 0
        for t in emptied:
            if board[t] == EMPTY:
                mask |= _BIT[t]
        own[1] &= ~mask
        own[-1] &= ~mask
        threats[1] |= mask
        threats[-1] |= mask
    if not fresh:
        return 0
    result = _after_eruption(board, fresh, node, par, cm)
    if result:
        return result
    grown = {}  # the components that took fresh tiles: root -> player
    for t in fresh:
        c = board[t]
        if c != EMPTY:
            player = 1 if c > EMPTY else -1
            own[player] |= _BIT[t]
            grown[_find(par, node[t])] = player
    for root, player in grown.items():
        threats[player] |= _threats_of(cm[root], own[player], node, par, cm)
    return 0
