"""The pure search's opening book: numba `mcts`'s moves for the first turns, searched long offline
(`bots/volcanoes/make_book.py`), which the pure search could not match in a turn's time.

The book holds blue's first move; orange's first two moves after each blue opening; blue's second
and third moves after each pair of orange replies to the book's first move; orange's third and
fourth moves (either side of a growth) after each pair of blue moves that follow. Orange's lines are
kept for the first tile of each of the board's two classes of tiles (60 and 20 tiles that its 120
symmetries exchange): a line that opens elsewhere is looked up through a symmetry (`symmetries`)
that takes its first tile there, and the answer taken back. A game leaves the book at the first
position that is not on one of its lines. `Opening` follows a game from position to position: it
finds the opponent's moves since our last book move among the tiles the opponent holds (or held
before one of our eruptions), and checks each line by replaying it.

A numba bot's bundle leaves the tables out (`arena.bundle`); its pure stand-in then plays without
a book.
"""

from __future__ import annotations

from itertools import product

from . import rules

try:
    from . import opening_book
except ImportError:  # (a bundle without the tables)
    opening_book = None

GROWTH_TURN = -1  # a growth turn's place in a line of moves
# Turns played before the book's last position (orange's fourth move); past it a game is off the
# book without a look for the opponent's moves, whose tiles multiply.
LAST_TURN = 9
NO_MOVE = -1
# `opening_book`'s strings hold two moves a character: a tile or NO_MOVE (as 80) each, from
# U+4E00 on (CJK characters: one UTF-16 unit each, as CodinGame counts a submission's size).
_BASE, _RADIX = 0x4E00, rules.N_TILES + 1


def encode(tiles) -> str:
    """Tiles (NO_MOVE among them) two a character; an odd count is ended by NO_MOVE."""
    codes = [rules.N_TILES if t < 0 else t for t in tiles]
    codes += [rules.N_TILES] * (len(codes) % 2)
    return "".join(chr(_BASE + a * _RADIX + b) for a, b in zip(codes[::2], codes[1::2], strict=True))


def decode(text: str) -> list[int]:
    tiles = []
    for ch in text:
        tiles += divmod(ord(ch) - _BASE, _RADIX)
    return [NO_MOVE if t == rules.N_TILES else t for t in tiles]


def group(generators) -> list[list[int]]:
    """Every permutation of the tiles that `generators` make, the identity first, in a
    breadth-first walk."""
    found = [list(rules.TILES)]
    seen = {tuple(found[0])}
    for sigma in found:  # (grows while it is walked)
        for g in generators:
            composed = [g[t] for t in sigma]
            if tuple(composed) not in seen:
                seen.add(tuple(composed))
                found.append(composed)
    return found


def symmetries(generators) -> list[list[int]]:
    """For each tile b, a symmetry of the board (a permutation of the tiles) that takes b to the
    first tile of its class: the first such in the walk of the group `generators` make (the
    board's 120 symmetries, which keep adjacency and antipodes)."""
    walk = group(generators)
    first = [min(sigma[b] for sigma in walk) for b in rules.TILES]
    return [next(sigma for sigma in walk if sigma[b] == first[b]) for b in rules.TILES]


def inverse(sigma: list[int]) -> list[int]:
    back = [0] * len(sigma)
    for t, image in enumerate(sigma):
        back[image] = t
    return back


def _table(name: str) -> list[int]:
    return decode(getattr(opening_book, name, ""))  # (empty without the tables)


FIRST = (_table("FIRST") or [NO_MOVE])[0]
_ORANGE = _table("ORANGE")  # per blue opening b: orange's moves at turns 2 and 4
_BLUE = _table("BLUE")  # per orange pair o1 * 80 + o2: blue's moves at turns 5 and 7
# Per class c and blue's second and third moves b5, b7 (seen through the symmetry), at 2 * (c *
# 6400 + b5 * 80 + b7): orange's moves at turns 8 and 10.
_DEEP = _table("DEEP")
_GENERATORS = _table("GENERATORS")
_SIGMA = symmetries([_GENERATORS[i : i + rules.N_TILES] for i in range(0, len(_GENERATORS), rules.N_TILES)])
_BACK = [inverse(sigma) for sigma in _SIGMA]
_CLASS = {image: c for c, image in enumerate(sorted({_SIGMA[b][b] for b in rules.TILES}))}


def replay(moves) -> tuple[bytearray, int]:
    """The board after `moves` from the start (GROWTH_TURN for a growth), and the turns played;
    turns -1 when a move is not legal or the game ended on the way."""
    board = rules.new_board()
    for turns, tile in enumerate(moves):
        who = rules.ACTORS[turns]
        if (who == rules.GROWTH) != (tile == GROWTH_TURN) or (tile >= 0 and not rules.is_legal(board, who, tile)):
            return board, -1
        if rules.take_turn(board, turns, tile) != rules.ONGOING:
            return board, -1
    return board, len(moves)


def lookup(line: list[int]) -> int:
    """The book's move after `line`, or NO_MOVE."""
    n = rules.N_TILES
    if not line:
        return FIRST
    if len(line) == 1 and _ORANGE:
        return _ORANGE[2 * line[0]]
    if len(line) == 3 and _ORANGE and line[1] == _ORANGE[2 * line[0]]:
        return _ORANGE[2 * line[0] + 1]
    if len(line) in (4, 6) and _BLUE and line[0] == FIRST and line[1] >= 0 and line[3] >= 0:
        i = 2 * (line[1] * n + line[3])
        if len(line) == 4:
            return _BLUE[i]
        if line[4] == _BLUE[i]:
            return _BLUE[i + 1]
    if len(line) in (7, 9) and _DEEP and line[1:4:2] == _ORANGE[2 * line[0] : 2 * line[0] + 2]:
        sigma, back = _SIGMA[line[0]], _BACK[line[0]]
        i = 2 * (_CLASS[sigma[line[0]]] * n * n + sigma[line[4]] * n + sigma[line[6]])
        o7, o9 = (NO_MOVE if m == NO_MOVE else back[m] for m in _DEEP[i : i + 2])
        if len(line) == 7:
            return o7
        if line[7] == o7:
            return o9
    return NO_MOVE


class Opening:
    """One game's way through the book."""

    def __init__(self):
        self.line: list[int] | None = []  # the moves of our last book position and our move; None: out

    def move(self, board, turns: int) -> int:
        """The book's move in this position (turns played), or NO_MOVE once the game is off the book."""
        if self.line is None or turns > LAST_TURN:
            self.line = None
            return NO_MOVE
        line = self._follow(bytes(board[: rules.N_TILES]), turns)
        move = lookup(line) if line is not None else NO_MOVE
        if move == NO_MOVE or not rules.is_legal(board, rules.ACTORS[turns], move):
            self.line = None
            return NO_MOVE
        self.line = line + [move]
        return move

    def _follow(self, board: bytes, turns: int) -> list[int] | None:
        """Our line extended by the turns since (the opponent's moves among the tiles it may have
        played), if one such line leads to `board`."""
        known = self.line
        gap = range(len(known), turns)
        opponent = -rules.ACTORS[turns]
        if -opponent in [rules.ACTORS[i] for i in gap]:  # we moved off the book (a game joined late)
            return None
        # The opponent's tiles, and the empty ones beside our erupted volcanoes (a piece destroyed).
        top = rules.ORANGE_TOP if opponent > 0 else rules.BLUE_TOP
        nb = rules._NB
        held = [
            t
            for t in rules.TILES
            if (board[t] - rules.EMPTY) * opponent > 0 or (board[t] == rules.EMPTY and top in [board[n] for n in nb[t]])
        ]
        choices = [held if rules.ACTORS[i] == opponent else [GROWTH_TURN] for i in gap]
        for tiles in product(*choices):
            line = known + list(tiles)
            replayed, played = replay(line)
            if played == turns and bytes(replayed) == board:
                return line
        return None
