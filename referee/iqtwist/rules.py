"""IQ-Twist rules in plain Python: placements and placement strings, validity with its reason,
viable placements, applying placements, and the canonical solution string.

A placement is 4 characters: piece `a`-`h` or peg `i`-`l`, column `1`-`8`, row `A`-`D`, orientation
`0`-`7` (always `0` for a peg). A state is the pieces placed so far and the pegs. Functions named
`..._problem` or `..._error` return None when all is well, else a sentence saying what is wrong and
where (which placement, which cell, which peg); the `parse_...` functions raise InputFormatError with
that sentence.
"""

from __future__ import annotations

from typing import NamedTuple

from referee.platform.errors import InputFormatError, counted
from referee.iqtwist.pieces import (
    COLOUR_NAMES,
    COLUMNS,
    FULL_BOARD,
    PEG_LIMITS,
    PEGS,
    PIECES,
    ROWS,
    Footprint,
    cell_name,
    colour,
    footprint,
    shape_cells,
)

MAX_PLACEMENTS = 15  # 8 pieces and 7 pegs


class Placement(NamedTuple):
    letter: str
    column: int  # 0-7, written 1-8
    row: int  # 0-3, written A-D
    orientation: int

    @property
    def is_peg(self) -> bool:
        return self.letter in PEGS

    @property
    def cell(self) -> int:
        return self.row * COLUMNS + self.column

    def __str__(self) -> str:
        return f"{self.letter}{self.column + 1}{'ABCD'[self.row]}{self.orientation}"


class State(NamedTuple):
    """Pieces placed (in letter order) and pegs (in letter order)."""

    pieces: tuple[Placement, ...] = ()
    pegs: tuple[Placement, ...] = ()

    def __str__(self) -> str:
        return "".join(map(str, self.pieces + self.pegs))


# --- Well-formedness -------------------------------------------------------------------------


def placement_problem(text: str) -> str | None:
    """Why `text` is not a well-formed single placement, or None."""
    if len(text) != 4:
        return f"{text!r} has {len(text)} characters, not 4"
    letter, column, row, orientation = text
    if not "a" <= letter <= "l":
        return f"{text!r}: {letter!r} is not a piece (a-h) or a peg (i-l)"
    if not "1" <= column <= "8":
        return f"{text!r}: column {column!r} is not 1-8"
    if not "A" <= row <= "D":
        return f"{text!r}: row {row!r} is not A-D"
    if letter in PEGS:
        if orientation != "0":
            return f"{text!r}: a peg's orientation must be 0, not {orientation!r}"
    elif not "0" <= orientation <= "7":
        return f"{text!r}: orientation {orientation!r} is not 0-7"
    return None


def is_placement_well_formed(text: str) -> bool:
    return placement_problem(text) is None


def parse_placement(text: str, where: str | None = None) -> Placement:
    problem = placement_problem(text)
    if problem:
        raise InputFormatError(problem, where)
    return Placement(text[0], int(text[1]) - 1, ord(text[2]) - ord("A"), int(text[3]))


def placement_string_problem(text: str) -> str | None:
    """Why `text` is not a well-formed placement string, or None.

    Well-formed: 1 to 15 well-formed placements, letters in non-decreasing order (pegs of one
    colour in either order), no piece twice, at most one red peg and two pegs of each other colour.
    """
    if not text:
        return "empty placement string"
    if len(text) % 4:
        return f"length {len(text)} is not a multiple of 4"
    count = len(text) // 4
    if count > MAX_PLACEMENTS:
        return f"{count} placements, at most {MAX_PLACEMENTS}"
    previous = None
    pegs_seen = [0, 0, 0, 0]
    for index in range(count):
        chunk = text[4 * index : 4 * index + 4]
        where = f"placement {index + 1}"
        problem = placement_problem(chunk)
        if problem:
            return f"{where} {problem}"
        letter = chunk[0]
        if previous is not None:
            if letter < previous:
                return f"{where} {chunk!r}: {letter!r} comes after {previous!r}; letters must be in order a-l"
            if letter == previous and letter in PIECES:
                return f"{where} {chunk!r}: piece {letter!r} appears twice"
        previous = letter
        if letter in PEGS:
            hue = colour(letter)
            pegs_seen[hue] += 1
            if pegs_seen[hue] > PEG_LIMITS[hue]:
                return f"{where} {chunk!r}: more than {counted(PEG_LIMITS[hue], COLOUR_NAMES[hue] + ' peg')}"
    return None


def is_placement_string_well_formed(text: str) -> bool:
    return placement_string_problem(text) is None


def parse_placement_string(text: str, where: str | None = None) -> tuple[Placement, ...]:
    problem = placement_string_problem(text)
    if problem:
        raise InputFormatError(problem, where)
    return tuple(parse_placement(text[i : i + 4]) for i in range(0, len(text), 4))


# --- Validity ---------------------------------------------------------------------------------


def _location(column: int, row: int) -> str:
    return f"{column + 1}{chr(ord('A') + row)}"  # also names cells off the board (9A, 3E, ...)


def peg_at(cell: int, pegs: tuple[Placement, ...]) -> Placement | None:
    for peg in pegs:
        if peg.cell == cell:
            return peg
    return None


def covered(state: State) -> int:
    """The mask of cells covered by the pieces of `state`."""
    mask = 0
    for piece in state.pieces:
        mask |= footprint(piece.letter, piece.column, piece.row, piece.orientation).cells
    return mask


def peg_problem(piece: str, shape: Footprint, pegs: tuple[Placement, ...]) -> str | None:
    """Why a piece lying on `shape` cannot go over the pegs, or None: a peg may only be covered by
    a hole of its own colour."""
    for peg in pegs:
        bit = 1 << peg.cell
        if not shape.cells & bit:
            continue
        if not shape.holes & bit:
            return f"its filled loop at {cell_name(peg.cell)} would cover the peg {peg}"
        if colour(peg.letter) != colour(piece):
            return (
                f"its {COLOUR_NAMES[colour(piece)]} hole at {cell_name(peg.cell)} would cover "
                f"the {COLOUR_NAMES[colour(peg.letter)]} peg {peg}"
            )
    return None


def piece_problem(state: State, placement: Placement) -> str | None:
    """Why piece `placement` cannot be added to `state`, or None."""
    if placement.is_peg:
        return f"{placement} is a peg, not a piece"
    for other in state.pieces:
        if other.letter == placement.letter:
            return f"piece {placement.letter!r} is already placed as {other}"
    shape = footprint(placement.letter, placement.column, placement.row, placement.orientation)
    if shape is None:
        off = [_location(x, y) for x, y, _ in shape_cells(*placement) if not (0 <= x < COLUMNS and 0 <= y < ROWS)]
        return f"its loop at {off[0]} is off the board"
    for other in state.pieces:
        overlap = shape.cells & footprint(other.letter, other.column, other.row, other.orientation).cells
        if overlap:
            cell = (overlap & -overlap).bit_length() - 1
            return f"cell {cell_name(cell)} is already covered by {other}"
    return peg_problem(placement.letter, shape, state.pegs)


def validity_problem(placements: tuple[Placement, ...]) -> str | None:
    """Why a well-formed sequence of placements is not valid, or None.

    Pegs go in first (two pegs on one location are invalid), then the pieces in order, each checked
    against the pegs and the pieces before it.
    """
    numbered = list(enumerate(placements, start=1))
    pegs: list[Placement] = []
    for index, peg in numbered:
        if peg.is_peg:
            other = peg_at(peg.cell, tuple(pegs))
            if other is not None:
                return f"placement {index} {peg}: peg {other} is already at {cell_name(peg.cell)}"
            pegs.append(peg)
    state = State((), tuple(sorted(pegs)))
    for index, piece in numbered:
        if not piece.is_peg:
            problem = piece_problem(state, piece)
            if problem:
                return f"placement {index} {piece}: {problem}"
            state = State(state.pieces + (piece,), state.pegs)
    return None


def placement_string_error(text: str) -> str | None:
    """Why `text` is not a valid placement string (malformed or invalid), or None."""
    problem = placement_string_problem(text)
    if problem:
        return problem
    return validity_problem(parse_placement_string(text))


def is_placement_string_valid(text: str) -> bool:
    return placement_string_error(text) is None


def parse_state(text: str, where: str | None = None) -> State:
    """The state of a well-formed, valid placement string; InputFormatError saying why otherwise."""
    placements = parse_placement_string(text, where)
    problem = validity_problem(placements)
    if problem:
        raise InputFormatError(problem, where)
    return State(
        tuple(sorted(p for p in placements if not p.is_peg)),
        tuple(sorted(p for p in placements if p.is_peg)),
    )


# --- Play -------------------------------------------------------------------------------------


def apply(state: State, placement: Placement) -> State:
    """`state` with piece `placement` added; ValueError saying why when it does not fit."""
    problem = piece_problem(state, placement)
    if problem:
        raise ValueError(f"{placement}: {problem}")
    return State(tuple(sorted(state.pieces + (placement,))), state.pegs)


def canonical(placement: Placement, pegs: tuple[Placement, ...]) -> Placement:
    """The placement of the same piece covering the same cells with the lowest orientation that is
    valid with `pegs` (the placement itself if no lower one is)."""
    cells = footprint(*placement).cells
    for orientation in range(placement.orientation):
        other = placement._replace(orientation=orientation)
        shape = footprint(*other)
        if shape is not None and shape.cells == cells and peg_problem(other.letter, shape, pegs) is None:
            return other
    return placement


def viable_placements(state: State) -> set[str]:
    """Every canonical placement of a piece not yet placed that can be added to `state` validly
    (the course returned null where this returns the empty set)."""
    placed = {piece.letter for piece in state.pieces}
    viable = set()
    for letter in PIECES:
        if letter in placed:
            continue
        for orientation in range(8):
            for row in range(ROWS):
                for column in range(COLUMNS):
                    placement = Placement(letter, column, row, orientation)
                    if piece_problem(state, placement) is None:
                        viable.add(str(canonical(placement, state.pegs)))
    return viable


def is_solved(state: State) -> bool:
    """All eight pieces placed (validly, as `apply` guarantees) and all 32 cells covered."""
    return len(state.pieces) == len(PIECES) and covered(state) == FULL_BOARD


def solution_string(state: State) -> str:
    """The 32-character canonical solution of a solved state."""
    if not is_solved(state):
        raise ValueError(f"{state} is not solved")
    return "".join(str(canonical(piece, state.pegs)) for piece in state.pieces)
