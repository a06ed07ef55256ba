"""Pictures of a card and of a solution: text frames for the terminal and one SVG of all frames."""

from __future__ import annotations

from html import escape

from referee.stormyseas.rules import BOW, COLS, PORT_COL, RED, ROWS, Card, State, render

_ANSI = {"#": "\x1b[44m", "-": "\x1b[46m", RED: "\x1b[41;97;1m", BOW: "\x1b[41;97;1m", "boat": "\x1b[43;30m"}
_RESET = "\x1b[0m"


def text_frame(card: Card, state: State, caption: str, *, color: bool = False) -> str:
    """The board with wave numbers on the left and the port (two cells under column 6) below."""
    grid = render(card, state, port=True)
    lines = [caption, "    " + " ".join(str(c + 1) for c in range(COLS))]
    for r, row in enumerate(grid):
        label = f"{r + 1:>2}  " if r < ROWS else "    "
        cells = []
        for c, ch in enumerate(row):
            if r >= ROWS and c != PORT_COL:
                cells.append("  ")
                continue
            shown = {"-": "." if r >= ROWS else "~"}.get(ch, ch)
            if color and ch != " ":
                cells.append(f"{_ANSI.get(ch, _ANSI['boat'])}{shown} {_RESET}")
            else:
                cells.append(shown + " ")
        lines.append(label + "".join(cells).rstrip())
    lines[-2] += "  <- port"
    return "\n".join(lines)


_CELL = 22
_FILL = {"-": "#bfe3f2", "#": "#1f5f8b", RED: "#d62828", BOW: "#d62828", "boat": "#e9c46a"}


def svg_frames(card: Card, frames: list[tuple[State, str]], *, per_row: int = 6) -> str:
    """One SVG image: every frame (a state and its caption) in a grid, in order."""
    width, height = COLS * _CELL, (ROWS + 2) * _CELL + 18  # board, port, caption
    gap = 14
    columns = min(per_row, len(frames))
    rows_of_frames = (len(frames) + per_row - 1) // per_row
    total_w = columns * (width + gap) + gap
    total_h = rows_of_frames * (height + gap) + gap
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w}" height="{total_h}" '
        f'viewBox="0 0 {total_w} {total_h}" font-family="sans-serif" font-size="12">',
        f'<rect width="{total_w}" height="{total_h}" fill="white"/>',
    ]
    for i, (state, caption) in enumerate(frames):
        x0 = gap + (i % per_row) * (width + gap)
        y0 = gap + (i // per_row) * (height + gap)
        parts.append(f'<g transform="translate({x0},{y0})">')
        parts.append(f'<text x="0" y="12">{escape(caption)}</text>')
        grid = render(card, state, port=True)
        for r, row in enumerate(grid):
            for c, ch in enumerate(row):
                if ch == " ":
                    continue
                x, y = c * _CELL, 18 + r * _CELL
                fill = _FILL.get(ch, _FILL["boat"])
                parts.append(f'<rect x="{x}" y="{y}" width="{_CELL}" height="{_CELL}" fill="{fill}" stroke="white"/>')
                if ch not in "-#":
                    label = "x" if ch == BOW else ch
                    parts.append(
                        f'<text x="{x + _CELL / 2}" y="{y + _CELL * 0.7}" text-anchor="middle" '
                        f'fill="{"white" if ch in (RED, BOW) else "black"}">{label}</text>'
                    )
        port_y = 18 + ROWS * _CELL
        parts.append(
            f'<rect x="{PORT_COL * _CELL}" y="{port_y}" width="{_CELL}" height="{2 * _CELL}" '
            'fill="none" stroke="#333" stroke-width="2"/>'
        )
        parts.append("</g>")
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
