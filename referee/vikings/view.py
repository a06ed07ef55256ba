"""Pictures of a board: a text drawing for the terminal and a hand-written SVG image.

In both, a tile's closed sides (where its lens is still there) are drawn and its open sides are
gaps; boats sit on the edges between tiles, and the targets, when given, are marked.
"""

from __future__ import annotations

import math
from html import escape

from referee.vikings import rules

_ANSI = {"B": "\x1b[1;97;44m", "G": "\x1b[1;97;42m", "R": "\x1b[1;97;41m", "Y": "\x1b[1;30;43m"}
_DIM, _RESET = "\x1b[2m", "\x1b[0m"

# Text layout: a tile is a 7x3 box; boxes 10 columns and 4 rows apart leave room for the edges.
_TILE_DX, _TILE_DY, _LEFT, _TOP = 10, 4, 4, 1


def _edge_cell(tile: int, side: int) -> tuple[int, int]:
    """(row, column) of the middle of an edge's 3-character cell in the text drawing."""
    x0, y0 = _LEFT + (tile % 3) * _TILE_DX, _TOP + (tile // 3) * _TILE_DY
    return ((y0 - 1, x0 + 3), (y0 + 1, x0 + 8), (y0 + 3, x0 + 3), (y0 + 1, x0 - 2))[side]


def text(board: rules.Board, targets=(), *, color: bool = False) -> str:
    """The board as text: boxes for tiles (`-` and `|` where closed, blank where open), edge letters
    in lower case, boats as their colour letter (`*` when on its target), then the targets."""
    width, height = _LEFT + 2 * _TILE_DX + 7 + 4, _TOP + 2 * _TILE_DY + 4
    canvas = [[" "] * width for _ in range(height)]
    styles: dict[tuple[int, int], str] = {}

    def put(row: int, col: int, s: str, style: str | None = None) -> None:
        for i, ch in enumerate(s):
            canvas[row][col + i] = ch
            if style:
                styles[row, col + i] = style

    for tile in range(9):
        x0, y0 = _LEFT + (tile % 3) * _TILE_DX, _TOP + (tile // 3) * _TILE_DY
        shut = [not board.is_open(tile, side) for side in range(4)]
        put(y0, x0, "+" + ("-----" if shut[rules.TOP] else "     ") + "+")
        label = f"{tile} {board.types[tile]}{board.orientations[tile]}".center(5)
        put(y0 + 1, x0, ("|" if shut[rules.LEFT] else " ") + label + ("|" if shut[rules.RIGHT] else " "))
        put(y0 + 2, x0, "+" + ("-----" if shut[rules.BOTTOM] else "     ") + "+")
    target_of = dict(targets)
    for edge in range(len(rules.EDGES)):
        row, col = _edge_cell(*rules.EDGE_TILES[edge][0])
        boat = board.boat_at(edge)
        if boat:
            put(row, col, boat, _ANSI[boat])
            if target_of.get(boat) == edge:
                put(row, col + 1, "*")
        else:
            put(row, col, rules.EDGES[edge], _DIM)
    lines = []
    for r, row in enumerate(canvas):
        if color:
            row = [f"{styles[r, c]}{ch}{_RESET}" if (r, c) in styles else ch for c, ch in enumerate(row)]
        lines.append("".join(row).rstrip())
    lines.append(f"board {rules.format_board(board)}")
    if targets:
        met = "met" if rules.is_solved(board, targets) else "not met"
        lines.append(f"target {rules.format_targets(targets)} ({met})")
    return "\n".join(lines)


# SVG geometry: tiles of radius R, centres D apart, so neighbours' circles meet in a lens; a tile
# keeps the lens on its closed sides and has it cut away (following the neighbour's circle) on
# its open sides.
_R, _D, _MARGIN = 50.0, 80.0, 60.0
_HALF = math.degrees(math.atan2(math.sqrt(_R * _R - (_D / 2) ** 2), _D / 2))  # lens half-angle
_FILL = {"B": "#1f6fd1", "G": "#2e9e44", "R": "#d62828", "Y": "#f2c230"}
_DIRECTION = (-90.0, 0.0, 90.0, 180.0)  # top, right, bottom, left, in screen degrees (y down)


def _centre(tile: int) -> tuple[float, float]:
    return _MARGIN + _R + (tile % 3) * _D, _MARGIN + _R + (tile // 3) * _D


def _point(cx: float, cy: float, degrees: float, radius: float = _R) -> tuple[float, float]:
    a = math.radians(degrees)
    return cx + radius * math.cos(a), cy + radius * math.sin(a)


def _tile_path(board: rules.Board, tile: int) -> str:
    cx, cy = _centre(tile)
    x, y = _point(cx, cy, _DIRECTION[0] - _HALF)
    parts = [f"M{x:.2f},{y:.2f}"]
    for side in range(4):
        x, y = _point(cx, cy, _DIRECTION[side] + _HALF)
        concave = board.is_open(tile, side)  # the cut follows the neighbour's circle
        parts.append(f"A{_R},{_R} 0 0 {0 if concave else 1} {x:.2f},{y:.2f}")
        x, y = _point(cx, cy, _DIRECTION[(side + 1) % 4] - _HALF)
        parts.append(f"A{_R},{_R} 0 0 1 {x:.2f},{y:.2f}")
    return " ".join(parts) + " Z"


def _edge_point(edge: int, outward: float = 0.0) -> tuple[float, float]:
    """An edge's point (midway between tile centres), moved `outward` away from its first tile."""
    tile, side = rules.EDGE_TILES[edge][0]
    cx, cy = _centre(tile)
    return _point(cx, cy, _DIRECTION[side], _D / 2 + outward)


def svg(board: rules.Board, targets=()) -> str:
    """The board as an SVG image (a string): tiles, edge letters, boats, and target triangles."""
    size = 2 * _MARGIN + 2 * _R + 2 * _D
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size:.0f}" height="{size + 30:.0f}" '
        f'viewBox="0 0 {size:.0f} {size + 30:.0f}" font-family="sans-serif">',
        '<rect width="100%" height="100%" fill="#f6f1e3"/>',
    ]
    for tile in range(9):
        cx, cy = _centre(tile)
        out.append(f'<path d="{_tile_path(board, tile)}" fill="#6fb7e0" stroke="#1d4e6e" stroke-width="2"/>')
        out.append(
            f'<text x="{cx:.1f}" y="{cy + 5:.1f}" text-anchor="middle" font-size="14" fill="#1d4e6e">'
            f"{tile} {board.types[tile]}{board.orientations[tile]}</text>"
        )
    for colour, edge in targets:
        tile, side = rules.EDGE_TILES[edge][0]
        tip, base = _edge_point(edge, 22), _edge_point(edge, 40)
        dx, dy = (base[1] - tip[1]) * 0.5, (tip[0] - base[0]) * 0.5  # half-width, perpendicular
        out.append(
            f'<polygon points="{tip[0]:.1f},{tip[1]:.1f} {base[0] + dx:.1f},{base[1] + dy:.1f} '
            f'{base[0] - dx:.1f},{base[1] - dy:.1f}" fill="{_FILL[colour]}" stroke="#333"/>'
        )
    for edge in range(len(rules.EDGES)):
        x, y = _edge_point(edge)
        boat = board.boat_at(edge)
        if boat:
            out.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="12" fill="{_FILL[boat]}" stroke="#222" stroke-width="2"/>'
            )
            out.append(
                f'<text x="{x:.1f}" y="{y + 5:.1f}" text-anchor="middle" font-size="14" '
                f'font-weight="bold" fill="#fff">{boat}</text>'
            )
        else:
            out.append(
                f'<text x="{x:.1f}" y="{y + 4:.1f}" text-anchor="middle" font-size="11" '
                f'fill="#555">{rules.EDGES[edge]}</text>'
            )
    caption = rules.format_board(board) + (f"  target {rules.format_targets(targets)}" if targets else "")
    out.append(
        f'<text x="{size / 2:.1f}" y="{size + 15:.1f}" text-anchor="middle" font-size="13">{escape(caption)}</text>'
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"
