"""Stormy Seas rules in plain Python: the card, legal moves with pushing, applying a move, the win.

The board is 8 waves (rows 0-7, named 1-8) x 9 columns. A wave is a slider whose blocks span 7
columns; it has 3 positions. Boats are straight pieces of 2 or 3 cells on water. The red boat `X`
(stern `X`, bow `x`, 2 cells) wins when it has sailed bow first into the port, two cells below
column 6 (index 5): the port is modelled as rows 8 and 9 of that column, open to the red boat only,
so the 2 unit moves into it are ordinary moves ("XD5" at the end of a solution).

A unit move moves one piece one cell. Sideways it pushes: a wave's blocks push the boats they would
cover, a boat pushes the waves whose blocks it would enter, transitively; boats never push boats.
Up/down only the boat moves. With the rotation option the red boat may turn a quarter turn about
its stern or bow when the 2x2 square it sweeps is open water.

Text: a card is 8 lines of 9 characters (`-` water, `#` block, `A`-`Z` boats, `X`/`x` the red
boat); a solution is comma-separated slides `<piece><U|D|L|R><distance>` (waves 1-8, boats by
letter) and, with rotation, `X<C|A><S|B>` (clockwise/anticlockwise about the stern/bow).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from referee.platform.errors import InputFormatError, counted

ROWS, COLS = 8, 9
WAVE_WIDTH = 7  # columns spanned by a wave's blocks
MAX_OFFSET = COLS - WAVE_WIDTH  # a wave's positions: offsets 0..MAX_OFFSET
PORT_COL = 5
PORT_ROWS = (8, 9)  # the port, below the board
RED = "X"
BOW = "x"
STEPS = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
TURNS = ("CS", "CB", "AS", "AB")  # clockwise/anticlockwise about the stern/bow
DOWN = (1, 0)
METRICS = ("units", "slides")  # what an optimal solution minimises first: unit moves or slides


class Boat(NamedTuple):
    """Where a boat is: its anchor cell and the step from one cell to the next.

    The red boat's anchor is its stern and the step points to its bow; another boat's anchor is its
    top (or left) cell and its step is (1, 0) (or (0, 1)).
    """

    row: int
    col: int
    drow: int
    dcol: int


class State(NamedTuple):
    offsets: tuple[int, ...]  # each wave's offset (0 = blocks start at column 0)
    boats: tuple[Boat, ...]  # in the card's boat order


@dataclass(frozen=True)
class Card:
    """What does not change during play: each wave's block pattern, the boats' names and lengths."""

    patterns: tuple[int, ...]  # bit c set: a block at column c when the wave's offset is 0
    letters: tuple[str, ...]  # boat names, the red boat first
    lengths: tuple[int, ...]
    start: State


class Move(NamedTuple):
    """One unit move: `piece` is a wave number "1".."8" or a boat letter; `action` a key of STEPS
    (one cell) or of TURNS (the red boat's quarter turn)."""

    piece: str
    action: str


class Slide(NamedTuple):
    """One entry of a solution: a piece moved `distance` cells one way, or a turn (distance 1)."""

    piece: str
    action: str
    distance: int

    def __str__(self) -> str:
        return f"{self.piece}{self.action}" if self.action in TURNS else f"{self.piece}{self.action}{self.distance}"


# ---------------------------------------------------------------------------------------------
# Card text


def parse_card(text: str) -> Card:
    """A card from its 8 lines of 9 characters; InputFormatError says what is wrong and where. Spaces
    around a line are no part of it (the one rule of every reader: the solver's, the judge's, show's)."""
    rows = [line.strip() for line in text.strip("\n").split("\n")]
    rows = [row for row in rows if row.strip()] if len(rows) != ROWS else rows
    if len(rows) != ROWS:
        raise InputFormatError(f"a card has {ROWS} lines, this one has {len(rows)}")
    cells: dict[str, list[tuple[int, int]]] = {}
    patterns = []
    bow = None
    for r, row in enumerate(rows):
        if len(row) != COLS:
            raise InputFormatError(f"a line has {COLS} characters, this one has {len(row)}", f"line {r + 1}")
        for c, ch in enumerate(row):
            if ch == BOW:
                if bow is not None:
                    raise InputFormatError("a second bow 'x'", f"line {r + 1}, cell {c + 1}")
                bow = (r, c)
                cells.setdefault(RED, []).append((r, c))
            elif "A" <= ch <= "Z":
                cells.setdefault(ch, []).append((r, c))
            elif ch not in "-#":
                raise InputFormatError(f"unknown character {ch!r} (use - # A-Z x)", f"line {r + 1}, cell {c + 1}")
        blocks = [c for c, ch in enumerate(row) if ch == "#"]
        if not blocks or blocks[-1] - blocks[0] + 1 != WAVE_WIDTH:
            span = blocks[-1] - blocks[0] + 1 if blocks else 0
            raise InputFormatError(
                f"wave {r + 1}'s blocks span {span} columns, a wave spans {WAVE_WIDTH}"
                " (a boat letter where a block should be?)",
                f"line {r + 1}",
            )
        patterns.append(sum(1 << (c - blocks[0]) for c in blocks))
    if RED not in cells:
        raise InputFormatError("no red boat 'X'")
    if bow is None:
        raise InputFormatError("the red boat has no bow 'x'")
    letters = [RED] + sorted(letter for letter in cells if letter != RED)
    boats, lengths = [], []
    if len(cells[RED]) != 2:
        raise InputFormatError(
            f"the red boat has {counted(len(cells[RED]), 'cell')}; it must have 2 (stern X and bow x)"
        )
    for letter in letters:
        boat = _straight_boat(letter, sorted(cells[letter]))
        if letter == RED:
            (stern,) = [cell for cell in cells[RED] if cell != bow]
            boat = Boat(stern[0], stern[1], bow[0] - stern[0], bow[1] - stern[1])
        boats.append(boat)
        lengths.append(len(cells[letter]))
    offsets = tuple(row.index("#") for row in rows)
    return Card(tuple(patterns), tuple(letters), tuple(lengths), State(offsets, tuple(boats)))


def _straight_boat(letter: str, cells: list[tuple[int, int]]) -> Boat:
    where = f"boat {letter}"
    if not 2 <= len(cells) <= 3:
        raise InputFormatError(f"{counted(len(cells), 'cell')}; a boat has 2 or 3", where)
    (r0, c0), (r1, c1) = cells[0], cells[-1]
    if c0 == c1 and r1 - r0 == len(cells) - 1:
        return Boat(r0, c0, 1, 0)
    if r0 == r1 and c1 - c0 == len(cells) - 1:
        return Boat(r0, c0, 0, 1)
    shown = ", ".join(f"line {r + 1} cell {c + 1}" for r, c in cells)
    raise InputFormatError(f"not straight: its cells ({shown}) are not one unbroken line", where)


def parse_cards(text: str) -> list[Card]:
    """Cards separated by blank lines; errors name the card (1-based)."""
    blocks, current = [], []
    for line in text.splitlines():
        if line.strip():
            current.append(line)
        elif current:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    if not blocks:
        raise InputFormatError("no card in the file")
    cards = []
    for i, block in enumerate(blocks, 1):
        try:
            cards.append(parse_card("\n".join(block)))
        except InputFormatError as exc:
            where = f"card {i}, {exc.where}" if exc.where else f"card {i}"
            raise InputFormatError(exc.what, where) from None
    return cards


def render(card: Card, state: State, *, port: bool = False) -> list[str]:
    """The card text of a state (8 lines); with `port`, two more lines for the port below."""
    grid = [["-"] * COLS for _ in range(ROWS + 2)]
    for r, pattern in enumerate(card.patterns):
        for c in range(COLS):
            if pattern << state.offsets[r] >> c & 1:
                grid[r][c] = "#"
    for letter, length, boat in zip(card.letters, card.lengths, state.boats, strict=True):
        for i, (r, c) in enumerate(boat_cells(boat, length)):
            grid[r][c] = BOW if letter == RED and i == length - 1 else letter
    if port:
        for r in PORT_ROWS:
            grid[r] = [ch if c == PORT_COL else " " for c, ch in enumerate(grid[r])]
    return ["".join(row) for row in grid[: ROWS + (2 if port else 0)]]


# ---------------------------------------------------------------------------------------------
# Solution text


def parse_solution(line: str, *, rotation: bool = False) -> list[Slide]:
    """Slides from "4L2, 5L2, XU3, ..."; InputFormatError names the slide (1-based)."""
    tokens = [token.strip() for token in line.split(",")]
    if tokens == [""]:
        raise InputFormatError("empty solution")
    slides = []
    for i, token in enumerate(tokens, 1):
        where = f"slide {i} {token!r}"
        if len(token) < 2:
            raise InputFormatError("a slide is <piece><U|D|L|R><distance>", where)
        piece, action, rest = token[0], token[1], token[2:]
        if not ("1" <= piece <= "8" or "A" <= piece <= "Z"):
            raise InputFormatError("the piece is a wave 1-8 or a boat letter A-Z", where)
        if action in "CA" and piece == RED:
            if rest not in ("S", "B"):
                raise InputFormatError("a turn is XCS, XCB, XAS or XAB (about the Stern or Bow)", where)
            if not rotation:
                raise InputFormatError("turning the red boat needs the rotation rule", where)
            slides.append(Slide(piece, action + rest, 1))
            continue
        if action not in STEPS:
            raise InputFormatError("the direction is U, D, L or R", where)
        if not (rest.isascii() and rest.isdigit()) or int(rest) < 1:  # ('²' is a digit to isdigit)
            raise InputFormatError("the distance is a whole number of cells, at least 1", where)
        slides.append(Slide(piece, action, int(rest)))
    return slides


def format_solution(slides: list[Slide]) -> str:
    return ", ".join(str(slide) for slide in slides)


def slides_from_moves(moves: list[Move]) -> list[Slide]:
    """Unit moves grouped into slides: consecutive moves of one piece one way are one slide."""
    slides: list[Slide] = []
    for move in moves:
        last = slides[-1] if slides else None
        if last and move.action in STEPS and (last.piece, last.action) == move:
            slides[-1] = last._replace(distance=last.distance + 1)
        else:
            slides.append(Slide(move.piece, move.action, 1))
    return slides


def moves_from_slides(slides: list[Slide]) -> list[Move]:
    return [Move(slide.piece, slide.action) for slide in slides for _ in range(slide.distance)]


def unit_count(slides: list[Slide]) -> int:
    return sum(slide.distance for slide in slides)


# ---------------------------------------------------------------------------------------------
# Play


def boat_cells(boat: Boat, length: int) -> list[tuple[int, int]]:
    return [(boat.row + i * boat.drow, boat.col + i * boat.dcol) for i in range(length)]


def blocks(card: Card, state: State, wave: int) -> set[int]:
    """The columns of a wave's blocks."""
    row = card.patterns[wave] << state.offsets[wave]
    return {c for c in range(COLS + MAX_OFFSET) if row >> c & 1}


def is_won(card: Card, state: State) -> bool:
    """The red boat is in the port."""
    return set(boat_cells(state.boats[0], card.lengths[0])) == {(r, PORT_COL) for r in PORT_ROWS}


def at_port_mouth(card: Card, state: State) -> bool:
    """The red boat is in rows 7-8 of column 6, bow down: two moves from the port."""
    red = state.boats[0]
    return (red.row, red.col, red.drow, red.dcol) == (ROWS - 2, PORT_COL, *DOWN)


def try_move(card: Card, state: State, move: Move, *, rotation: bool = False) -> tuple[State | None, str | None]:
    """The state after a unit move, or (None, why the move is illegal)."""
    piece, action = move
    if piece.isdigit():
        wave = int(piece) - 1
        if not 0 <= wave < ROWS:
            return None, f"there is no wave {piece}"
        if action not in ("L", "R"):
            return None, "a wave only moves left or right"
        return _push(card, state, STEPS[action][1], wave=wave)
    if piece not in card.letters:
        return None, f"there is no boat {piece}"
    index = card.letters.index(piece)
    if index == 0 and is_won(card, state):
        return None, "the red boat is already in the port"
    if action in TURNS:
        if not rotation:
            return None, "turning needs the rotation rule"
        if index != 0:
            return None, "only the red boat turns"
        return _turn(card, state, action)
    drow, dcol = STEPS[action]
    if dcol:
        return _push(card, state, dcol, boat=index)
    return _sail(card, state, index, drow)


def legal_moves(card: Card, state: State, *, rotation: bool = False) -> list[tuple[Move, State]]:
    """Every legal unit move from `state` with the state it leads to (none once the game is won)."""
    if is_won(card, state):
        return []
    actions = list(STEPS) + (list(TURNS) if rotation else [])
    pieces = [str(w + 1) for w in range(ROWS)] + list(card.letters)
    result = []
    for piece in pieces:
        for action in actions:
            if piece.isdigit() and action not in ("L", "R") or action in TURNS and piece != RED:
                continue
            move = Move(piece, action)
            after, _ = try_move(card, state, move, rotation=rotation)
            if after is not None:
                result.append((move, after))
    return result


def apply_slide(card: Card, state: State, slide: Slide, *, rotation: bool = False) -> tuple[State | None, str | None]:
    """Replay a slide cell by cell: the final state, or (None, which cell of it fails and why)."""
    for step in range(1, slide.distance + 1):
        after, why = try_move(card, state, Move(slide.piece, slide.action), rotation=rotation)
        if after is None:
            where = f"cell {step} of {slide.distance}: " if slide.distance > 1 else ""
            return None, where + why
        state = after
    return state, None


def _occupant(card: Card, state: State, cell: tuple[int, int], skip: int) -> str | None:
    """Which boat (other than boat `skip`) is on `cell`."""
    for j, (boat, length) in enumerate(zip(state.boats, card.lengths, strict=True)):
        if j != skip and cell in boat_cells(boat, length):
            return card.letters[j]
    return None


def _push(card: Card, state: State, dcol: int, *, wave: int | None = None, boat: int | None = None):
    """A sideways unit move of a wave or a boat with everything it pushes (the transitive closure)."""
    waves_moving: set[int] = set()
    boats_moving: set[int] = set()
    todo = [("wave", wave)] if wave is not None else [("boat", boat)]
    while todo:
        kind, i = todo.pop()
        if kind == "wave":
            if i in waves_moving:
                continue
            waves_moving.add(i)
            covered = {c + dcol for c in blocks(card, state, i)}
            for j, (other, length) in enumerate(zip(state.boats, card.lengths, strict=True)):
                if j not in boats_moving and any(r == i and c in covered for r, c in boat_cells(other, length)):
                    todo.append(("boat", j))
        else:
            if i in boats_moving:
                continue
            boats_moving.add(i)
            for r, c in boat_cells(state.boats[i], card.lengths[i]):
                if r < ROWS and r not in waves_moving and c + dcol in blocks(card, state, r):
                    todo.append(("wave", r))
    offsets = list(state.offsets)
    for w in sorted(waves_moving):
        offsets[w] += dcol
        if not 0 <= offsets[w] <= MAX_OFFSET:
            return None, f"wave {w + 1} would leave the board"
    boats = list(state.boats)
    for j in sorted(boats_moving):
        letter = card.letters[j]
        if any(r >= ROWS for r, _ in boat_cells(boats[j], card.lengths[j])):
            return None, f"boat {letter} is in the port and cannot move sideways"
        boats[j] = boats[j]._replace(col=boats[j].col + dcol)
        if any(not 0 <= c < COLS for _, c in boat_cells(boats[j], card.lengths[j])):
            return None, f"boat {letter} would leave the board"
    after = State(tuple(offsets), tuple(boats))
    # The closure makes block collisions impossible; the check states the rule as written.
    for j in sorted(boats_moving):
        for cell in boat_cells(boats[j], card.lengths[j]):
            other = _occupant(card, after, cell, j)
            if other is not None:
                return None, f"boat {card.letters[j]} would hit boat {other} (boats do not push boats)"
            if cell[0] < ROWS and cell[1] in blocks(card, after, cell[0]):  # pragma: no cover
                return None, f"boat {card.letters[j]} would end on a block of wave {cell[0] + 1}"
    return after, None


def _open_cell(card: Card, state: State, cell: tuple[int, int], boat: int, *, port: bool) -> str | None:
    """Why boat `boat` cannot enter `cell`, or None when it is water free of other boats."""
    r, c = cell
    if port and r in PORT_ROWS and c == PORT_COL:
        pass
    elif not (0 <= r < ROWS and 0 <= c < COLS):
        return "would leave the board"
    elif c in blocks(card, state, r):
        return f"would hit a block of wave {r + 1}"
    other = _occupant(card, state, cell, boat)
    return f"would hit boat {other}" if other else None


def _sail(card: Card, state: State, index: int, drow: int):
    """An up/down unit move: only the boat moves. The red boat enters the port bow first."""
    boat, length, letter = state.boats[index], card.lengths[index], card.letters[index]
    moved = boat._replace(row=boat.row + drow)
    port = index == 0 and (boat.col, boat.drow, boat.dcol) == (PORT_COL, *DOWN)
    old = set(boat_cells(boat, length))
    for cell in boat_cells(moved, length):
        if cell not in old:
            why = _open_cell(card, state, cell, index, port=port)
            if why:
                return None, f"boat {letter} {why}"
    boats = state.boats[:index] + (moved,) + state.boats[index + 1 :]
    return State(state.offsets, boats), None


def _turn(card: Card, state: State, action: str):
    """The red boat's quarter turn about its stern (S) or bow (B); the 2x2 square it sweeps must be
    open water."""
    red = state.boats[0]
    stern, bow = boat_cells(red, 2)
    pivot, other = (stern, bow) if action[1] == "S" else (bow, stern)
    dr, dc = other[0] - pivot[0], other[1] - pivot[1]
    dr, dc = (dc, -dr) if action[0] == "C" else (-dc, dr)  # rows grow downward
    turned = (pivot[0] + dr, pivot[1] + dc)
    corner = (turned[0] + other[0] - pivot[0], turned[1] + other[1] - pivot[1])
    for cell in (other, turned, corner):
        if not (0 <= cell[0] < ROWS and 0 <= cell[1] < COLS):
            return None, "the turn would sweep outside the board"
    for cell in (turned, corner):
        why = _open_cell(card, state, cell, 0, port=False)
        if why:
            return None, f"the turn {why}"
    if action[1] == "S":
        new = Boat(stern[0], stern[1], dr, dc)
    else:
        new = Boat(turned[0], turned[1], bow[0] - turned[0], bow[1] - turned[1])
    return State(state.offsets, (new,) + state.boats[1:]), None
