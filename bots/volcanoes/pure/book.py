"""The pure search's opening book: numba `mcts`'s moves for the first turns, searched long offline
(`make_book.py`), which the pure search could not match in a turn's time.

The book holds blue's first move; orange's first two moves after each blue opening; blue's second
and third moves after each pair of orange replies to the book's first move (every line where the
opponent's choices number 80 or 80 x 80). A game leaves the book at the first position that is not
on one of its lines. `Opening` follows a game from position to position: it finds the opponent's
moves since our last book move among the tiles the opponent holds, and checks each line by
replaying it.
"""

from __future__ import annotations

from itertools import product

from . import opening_book, rules

GROWTH_TURN = -1  # a growth turn's place in a line of moves
# Turns played before the book's last position (blue's third move); past it a game is off the book
# without a look for the opponent's moves, whose tiles multiply.
LAST_TURN = 6
NO_MOVE = -1
# One character a tile (or NO_MOVE, the last) in `opening_book`'s strings.
ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!#$%&()*+,-./:;<=>?@[]^_"
_TILE = {ch: i for i, ch in enumerate(ALPHABET[: rules.N_TILES])}
_TILE[ALPHABET[rules.N_TILES]] = NO_MOVE


def encode(tiles) -> str:
    return "".join(ALPHABET[rules.N_TILES if t < 0 else t] for t in tiles)


def decode(text: str) -> list[int]:
    return [_TILE[ch] for ch in text]


FIRST = decode(opening_book.FIRST)[0] if opening_book.FIRST else NO_MOVE
_ORANGE = decode(opening_book.ORANGE)  # per blue opening b: orange's moves at turns 2 and 4
_BLUE = decode(opening_book.BLUE)  # per orange pair o1 * 80 + o2: blue's moves at turns 5 and 7


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
        """Our line extended by the turns since (the opponent's moves among the tiles it holds),
        if one such line leads to `board`."""
        known = self.line
        gap = range(len(known), turns)
        opponent = -rules.ACTORS[turns]
        held = [t for t in rules.TILES if (board[t] - rules.EMPTY) * opponent > 0]
        choices = [held if rules.ACTORS[i] == opponent else [GROWTH_TURN] for i in gap]
        for tiles in product(*choices):
            line = known + list(tiles)
            replayed, played = replay(line)
            if played == turns and bytes(replayed) == board:
                return line
        return None
