"""The board, the eight pieces and their eight orientations: data, built once at import.

Cells are numbered `row * 8 + column` (row 0 = `A`, column 0 = `1`), so a set of cells is a 32-bit
mask. A location is written column then row, as in the placement encoding: `7A` is cell 6.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

COLUMNS = 8
ROWS = 4
CELLS = COLUMNS * ROWS
FULL_BOARD = (1 << CELLS) - 1

PIECES = "abcdefgh"
PEGS = "ijkl"
COLOUR_NAMES = ("red", "blue", "green", "yellow")
# At most this many pegs of each colour (red, blue, green, yellow) in a placement string.
PEG_LIMITS = (1, 2, 2, 2)

# Orientation 0 of each piece, top row first: X = filled loop, O = loop with a hole, . = nothing.
SHAPES = {
    "a": ("OXO", "..X"),
    "b": ("XX.", ".OX"),
    "c": ("XOXX",),
    "d": ("XXX", ".OO"),
    "e": ("XO", ".O"),
    "f": ("XXO", ".O."),
    "g": ("O..", "OXX", ".O."),
    "h": ("OXX",),
}


def colour(letter: str) -> int:
    """0 red, 1 blue, 2 green, 3 yellow, for a piece (`a`-`h`) or a peg (`i`-`l`)."""
    if letter in PIECES:
        return PIECES.index(letter) // 2
    return PEGS.index(letter)


def cell_name(cell: int) -> str:
    """`7A` for cell 6: column then row, as in placements."""
    return f"{cell % COLUMNS + 1}{'ABCD'[cell // COLUMNS]}"


def _turn_clockwise(rows: tuple[str, ...]) -> tuple[str, ...]:
    height = len(rows)
    return tuple("".join(rows[height - 1 - r][c] for r in range(height)) for c in range(len(rows[0])))


def oriented_shape(piece: str, orientation: int) -> tuple[str, ...]:
    """The picture of `piece` in `orientation` = 4 * flip + k: mirror top to bottom if flip, then
    turn k quarter-turns clockwise."""
    rows = SHAPES[piece]
    if orientation >= 4:
        rows = rows[::-1]
    for _ in range(orientation % 4):
        rows = _turn_clockwise(rows)
    return rows


class Footprint(NamedTuple):
    """Where a piece lies: the cells it covers and, among them, its holes (both as masks)."""

    cells: int
    holes: int


def footprint(piece: str, column: int, row: int, orientation: int) -> Footprint | None:
    """The footprint of a piece whose turned bounding box has its top-left corner at (column, row),
    or None when part of it would leave the board."""
    cells = holes = 0
    for dy, line in enumerate(oriented_shape(piece, orientation)):
        for dx, mark in enumerate(line):
            if mark == ".":
                continue
            x, y = column + dx, row + dy
            if not (0 <= x < COLUMNS and 0 <= y < ROWS):
                return None
            bit = 1 << (y * COLUMNS + x)
            cells |= bit
            if mark == "O":
                holes |= bit
    return Footprint(cells, holes)


def _footprint_table() -> tuple[np.ndarray, ...]:
    """Every footprint of every piece on the board, in (piece, orientation, row, column) order:
    arrays piece index, orientation, column, row, cells mask, holes mask."""
    rows = []
    for index, piece in enumerate(PIECES):
        for orientation in range(8):
            for row in range(ROWS):
                for column in range(COLUMNS):
                    shape = footprint(piece, column, row, orientation)
                    if shape is not None:
                        rows.append((index, orientation, column, row, shape.cells, shape.holes))
    return tuple(np.array(column, np.int64) for column in zip(*rows, strict=True))


FOOTPRINTS = _footprint_table()


def shape_cells(piece: str, column: int, row: int, orientation: int) -> list[tuple[int, int, str]]:
    """Every (column, row, mark) the piece's loops would lie on, on the board or not."""
    return [
        (column + dx, row + dy, mark)
        for dy, line in enumerate(oriented_shape(piece, orientation))
        for dx, mark in enumerate(line)
        if mark != "."
    ]
