"""Coroutine: the board, the two tokens, legal turns, and the puzzle and answer texts.

A 3x3 board; each outer square shows a set of arrows among 8 directions (0=N, 1=NE, ... 7=NW,
clockwise, N up), the centre none. Token A starts top-left, B bottom-right; A moves first and the
tokens alternate. The mover steps one square in a direction shown on the square where the *other*
token stands, staying on the board and off the other token; with no such step it passes (a forced
pass). The puzzle is solved as soon as either token stands on the centre.

Squares are numbered 0..8 row by row; a board is 9 bitmasks (bit d set: the square shows direction d).
"""

from __future__ import annotations

from typing import NamedTuple

from referee.platform.errors import InputFormatError, shorten

DIRECTION_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
_DELTAS = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))  # (row, column)
SQUARE_NAMES = (
    "top-left", "top", "top-right",
    "left", "centre", "right",
    "bottom-left", "bottom", "bottom-right",
)  # fmt: skip
CENTRE = 4
OUTER_SQUARES = (0, 1, 2, 3, 5, 6, 7, 8)

Board = tuple[int, ...]  # 9 direction bitmasks, the centre's always 0


class State(NamedTuple):
    a: int  # A's square
    b: int  # B's square
    mover: str  # "A" or "B"

    def square(self, token: str) -> int:
        return self.a if token == "A" else self.b

    def other(self) -> str:
        return "B" if self.mover == "A" else "A"


START = State(0, 8, "A")


class Turn(NamedTuple):
    token: str  # "A" or "B"
    direction: int | None  # None: a forced pass


class IllegalTurn(ValueError):
    """A turn the rules forbid; the message says why."""


def neighbour(square: int, direction: int) -> int | None:
    """The square one step from `square` in `direction`, or None off the board."""
    row, col = divmod(square, 3)
    drow, dcol = _DELTAS[direction]
    row, col = row + drow, col + dcol
    return row * 3 + col if 0 <= row < 3 and 0 <= col < 3 else None


def arrows(board: Board, square: int) -> tuple[int, ...]:
    """The directions shown on `square`, in order."""
    return tuple(d for d in range(8) if board[square] >> d & 1)


def is_solved(state: State) -> bool:
    return CENTRE in (state.a, state.b)


def legal_steps(board: Board, state: State) -> tuple[int, ...]:
    """The directions the mover may step in; empty means it must pass."""
    here, there = state.square(state.mover), state.square(state.other())
    return tuple(d for d in arrows(board, there) if neighbour(here, d) not in (None, there))


def successors(board: Board, state: State) -> list[tuple[Turn, State]]:
    """Every legal turn from an unsolved `state` and the state it leads to."""
    steps = legal_steps(board, state)
    turns = [Turn(state.mover, d) for d in steps] or [Turn(state.mover, None)]
    return [(turn, play(board, state, turn)) for turn in turns]


def play(board: Board, state: State, turn: Turn) -> State:
    """The state after `turn`; raises IllegalTurn (with the reason) when the rules forbid it."""
    if is_solved(state):
        raise IllegalTurn("the puzzle is already solved")
    if turn.token != state.mover:
        raise IllegalTurn(f"it is {state.mover}'s turn, not {turn.token}'s")
    mover, other = state.mover, state.other()
    here, there = state.square(mover), state.square(other)
    steps = legal_steps(board, state)
    shown = ", ".join(DIRECTION_NAMES[d] for d in arrows(board, there)) or "none"
    if turn.direction is None:
        if steps:
            can = ", ".join(DIRECTION_NAMES[d] for d in steps)
            raise IllegalTurn(f"{mover} may not pass: it can step {can}")
        return state._replace(mover=other)
    if turn.direction not in steps:
        name = DIRECTION_NAMES[turn.direction]
        if not board[there] >> turn.direction & 1:
            why = f"{SQUARE_NAMES[there]} ({other}'s square) shows {shown}"
        elif neighbour(here, turn.direction) is None:
            why = "that leaves the board"
        else:
            why = f"{other} stands there"
        raise IllegalTurn(f"{mover} cannot step {name} from {SQUARE_NAMES[here]}: {why}")
    to = neighbour(here, turn.direction)
    return State(to, state.b, "B") if mover == "A" else State(state.a, to, "A")


# --- text ------------------------------------------------------------------------------------------


def parse_puzzle(text: str, first_line: int = 1) -> Board:
    """A board from 3 lines of 3 space-separated cells: direction digits (`045`) or `-`.

    `first_line` numbers the lines in messages (for puzzles inside a longer file).
    """
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) != 3:
        raise InputFormatError(f"a puzzle has 3 lines of 3 cells, got {len(lines)} lines", f"line {first_line}")
    board = []
    for row, line in enumerate(lines):
        cells = line.split()
        where = f"line {first_line + row}"
        if len(cells) != 3:
            raise InputFormatError(f"expected 3 cells, got {len(cells)}", where)
        for col, cell in enumerate(cells):
            board.append(_parse_cell(cell, f"{where}, cell {col + 1}"))
    if board[CENTRE]:
        raise InputFormatError("the centre shows no arrows: write '-'", f"line {first_line + 1}, cell 2")
    return tuple(board)


def _parse_cell(cell: str, where: str) -> int:
    if cell == "-":
        return 0
    mask = 0
    for char in cell:
        if char not in "01234567":
            raise InputFormatError(f"{shorten(cell)}: a cell is direction digits 0-7 or '-'", where)
        if mask >> int(char) & 1:
            raise InputFormatError(f"{shorten(cell)}: direction {char} appears twice", where)
        mask |= 1 << int(char)
    return mask


def parse_puzzles(text: str) -> list[Board]:
    """Every puzzle in `text`, puzzles separated by blank lines."""
    puzzles, block, block_start = [], [], 1
    for number, line in enumerate(text.splitlines() + [""], start=1):
        if line.strip():
            if not block:
                block_start = number
            block.append(line)
        elif block:
            puzzles.append(parse_puzzle("\n".join(block), block_start))
            block = []
    if not puzzles:
        raise InputFormatError("no puzzle found")
    return puzzles


def format_puzzle(board: Board) -> str:
    cells = ["".join(map(str, arrows(board, s))) or "-" for s in range(9)]
    return "\n".join(" ".join(cells[row * 3 : row * 3 + 3]) for row in range(3))


def parse_answer(text: str) -> list[Turn]:
    """Turns from `A2 B- A:E B:SW ...`: the token, then a direction digit, a compass name or `-`."""
    words = text.split()
    if not words:
        raise InputFormatError("empty answer")
    return [_parse_turn(word, f"turn {i}") for i, word in enumerate(words, start=1)]


def _parse_turn(word: str, where: str) -> Turn:
    token, rest = word[:1], word[1:]
    if rest.startswith(":"):
        rest = rest[1:]
    if token in ("A", "B"):
        if rest == "-":
            return Turn(token, None)
        if len(rest) == 1 and rest in "01234567":
            return Turn(token, int(rest))
        if rest.upper() in DIRECTION_NAMES:
            return Turn(token, DIRECTION_NAMES.index(rest.upper()))
    raise InputFormatError(
        f"{word!r} is not a turn: expected A or B, then a direction (0-7 or N, NE, ... NW) or '-'", where
    )


def format_answer(turns: list[Turn]) -> str:
    return " ".join(t.token + ("-" if t.direction is None else str(t.direction)) for t in turns)
