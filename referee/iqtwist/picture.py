"""Pictures of a board: text for the terminal (ANSI colours or plain) and a hand-written SVG.

Both draw the same 32 cells, read once by `board_cells`: which piece covers the cell, whether that
loop is a hole, and which peg stands there.
"""

from __future__ import annotations

from typing import NamedTuple
from xml.sax.saxutils import escape

from referee.iqtwist.pieces import CELLS, COLUMNS, ROWS, colour, footprint
from referee.iqtwist.rules import State


class Cell(NamedTuple):
    piece: str | None  # the letter of the piece covering the cell
    hole: bool  # the piece's loop there has a hole
    peg: str | None  # the letter of the peg standing there


def board_cells(state: State) -> list[Cell]:
    """The 32 cells of a valid state, cell `row * 8 + column` at that index."""
    piece_at: dict[int, tuple[str, bool]] = {}
    for piece in state.pieces:
        shape = footprint(*piece)
        for cell in range(CELLS):
            if shape.cells >> cell & 1:
                piece_at[cell] = (piece.letter, bool(shape.holes >> cell & 1))
    peg_at = {peg.cell: peg.letter for peg in state.pegs}
    return [Cell(*piece_at.get(cell, (None, False)), peg_at.get(cell)) for cell in range(CELLS)]


# --- Terminal ---------------------------------------------------------------------------------

# Per colour (red, blue, green, yellow): the ANSI codes for a solid loop (letter on the colour) and
# for a hole or a peg (the letter in the colour).
_SOLID = ("1;97;41", "1;97;44", "1;97;42", "1;30;43")
_OUTLINE = ("1;31", "1;34", "1;32", "1;33")

LEGEND = "[ a ] filled loop of piece a   ( a ) hole   (a:i) peg i in a hole   <i> peg   . empty"


def _cell_text(cell: Cell) -> str:
    """Five characters for one cell."""
    if cell.piece is None:
        return f" <{cell.peg}> " if cell.peg else "  .  "
    if not cell.hole:
        return f"[ {cell.piece} ]"
    return f"({cell.piece}:{cell.peg})" if cell.peg else f"( {cell.piece} )"


def _paint(text: str, cell: Cell) -> str:
    if cell.piece is None and cell.peg is None:
        return text
    hue = colour(cell.piece or cell.peg)
    code = _SOLID[hue] if cell.piece and not cell.hole else _OUTLINE[hue]
    return f"\x1b[{code}m{text}\x1b[0m"


def text_picture(state: State, coloured: bool = False) -> str:
    """The board as lines of text: columns 1-8 across, rows A-D down, five characters a cell, then
    a legend; with `coloured`, each piece and peg in its colour (ANSI escapes)."""
    cells = board_cells(state)
    lines = [("   " + " ".join(f"{column + 1:^5}" for column in range(COLUMNS))).rstrip()]
    for row in range(ROWS):
        texts = []
        for cell in cells[row * COLUMNS : (row + 1) * COLUMNS]:
            text = _cell_text(cell)
            texts.append(_paint(text, cell) if coloured else text)
        lines.append(f"{'ABCD'[row]}  " + " ".join(texts))
    return "\n".join(lines + [LEGEND])


# --- SVG --------------------------------------------------------------------------------------

COLOURS = ("#d7263d", "#1b63c6", "#2e9e44", "#f2c230")  # red, blue, green, yellow
SIZE = 60  # pixels per cell
MARGIN = 30  # room for the column and row labels
LOOP_RADIUS = 24
RING_WIDTH = 9
PEG_RADIUS = 8


def _centre(cell: int) -> tuple[int, int]:
    return MARGIN + SIZE * (cell % COLUMNS) + SIZE // 2, MARGIN + SIZE * (cell // COLUMNS) + SIZE // 2


def _bridges(cells: list[Cell]) -> list[str]:
    """A bar from loop to loop between neighbouring cells of one piece, so each piece reads as one."""
    bars = []
    for cell, here in enumerate(cells):
        if here.piece is None:
            continue
        x, y = _centre(cell)
        fill = COLOURS[colour(here.piece)]
        half = LOOP_RADIUS - RING_WIDTH // 2  # from just inside one ring to just inside the next
        if cell % COLUMNS < COLUMNS - 1 and cells[cell + 1].piece == here.piece:
            bars.append(
                f'<rect class="bridge" x="{x + half}" y="{y - 7}" width="{SIZE - 2 * half}" height="14" fill="{fill}"/>'
            )
        if cell + COLUMNS < CELLS and cells[cell + COLUMNS].piece == here.piece:
            bars.append(
                f'<rect class="bridge" x="{x - 7}" y="{y + half}" width="14" height="{SIZE - 2 * half}" fill="{fill}"/>'
            )
    return bars


def svg_picture(state: State) -> str:
    """The board as an SVG document: filled loops as discs, holes as rings, pegs as small dots,
    each in its colour; empty cells as faint sockets."""
    cells = board_cells(state)
    width, height = 2 * MARGIN + SIZE * COLUMNS, 2 * MARGIN + SIZE * ROWS
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
        f"<title>IQ-Twist {escape(str(state))}</title>",
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
        f'<rect x="{MARGIN - 6}" y="{MARGIN - 6}" width="{SIZE * COLUMNS + 12}" height="{SIZE * ROWS + 12}" '
        'rx="12" fill="#3a3f47"/>',
    ]
    for column in range(COLUMNS):
        x = MARGIN + SIZE * column + SIZE // 2
        parts.append(f'<text x="{x}" y="{MARGIN - 12}" text-anchor="middle" font-size="14">{column + 1}</text>')
    for row in range(ROWS):
        y = MARGIN + SIZE * row + SIZE // 2 + 5
        parts.append(f'<text x="{MARGIN - 16}" y="{y}" text-anchor="middle" font-size="14">{"ABCD"[row]}</text>')
    for cell in range(CELLS):
        x, y = _centre(cell)
        parts.append(f'<circle class="socket" cx="{x}" cy="{y}" r="5" fill="#5b626c"/>')
    parts += _bridges(cells)
    for cell, here in enumerate(cells):
        x, y = _centre(cell)
        if here.piece is not None:
            fill = COLOURS[colour(here.piece)]
            if here.hole:
                radius = LOOP_RADIUS - RING_WIDTH / 2
                parts.append(
                    f'<circle class="loop hole" data-piece="{here.piece}" cx="{x}" cy="{y}" r="{radius}" '
                    f'fill="none" stroke="{fill}" stroke-width="{RING_WIDTH}"/>'
                )
            else:
                parts.append(
                    f'<circle class="loop filled" data-piece="{here.piece}" cx="{x}" cy="{y}" '
                    f'r="{LOOP_RADIUS}" fill="{fill}"/>'
                )
        if here.peg is not None:
            fill = COLOURS[colour(here.peg)]
            parts.append(
                f'<circle class="peg" data-peg="{here.peg}" cx="{x}" cy="{y}" r="{PEG_RADIUS}" '
                f'fill="{fill}" stroke="#ffffff" stroke-width="2"/>'
            )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
