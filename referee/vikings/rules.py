"""Vikings - Brainstorm (SmartGames): board strings, objectives and moves, in plain Python.

Nine round sea tiles in a 3x3 grid, numbered 0-8 row-major; 24 edges `a`-`x` between and around them:

        a   b   c
      d 0 e 1 f 2 g
        h   i   j
      k 3 l 4 m 5 n
        o   p   q
      r 6 s 7 t 8 u
        v   w   x

Each tile has lenses cut away (open sides): an `N` tile at right and bottom in orientation 0, an `O`
tile at left and right; orientation k is k clockwise quarter-turns from 0. Boats sit on edges. A move
turns one tile a quarter-turn clockwise, carrying the boats on its edges; it is allowed when a boat is
on one of the tile's edges and every neighbouring tile is open at their shared edge.

A board string is nine tiles (type and orientation) then 1-4 boats (colour and edge) in B, G, R, Y
order: `O1O0O1N1N2N2N3N3N3BuGcRjYk`. A target is colour-edge pairs in any order: `BrGdRcYn`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from referee.platform.errors import InputFormatError, counted

EDGES = "abcdefghijklmnopqrstuvwx"
COLOURS = "BGRY"
TILE_TYPES = "NO"
TILE_COUNT = {"N": 6, "O": 3}
MAX_BOATS = 4
SIDES = ("top", "right", "bottom", "left")
TOP, RIGHT, BOTTOM, LEFT = range(4)

# Each tile's edges as (top, right, bottom, left), edge indices into EDGES.
TILE_EDGES = tuple(
    tuple(EDGES.index(c) for c in sides)
    for sides in ("aehd", "bfie", "cgjf", "hlok", "impl", "jnqm", "osvr", "ptws", "quxt")
)

# The tiles (with their side) touching each edge: one for a boundary edge, two for an inner edge.
EDGE_TILES = tuple(
    tuple((tile, side) for tile in range(9) for side in range(4) if TILE_EDGES[tile][side] == edge)
    for edge in range(len(EDGES))
)
BOUNDARY_EDGES = frozenset(e for e in range(len(EDGES)) if len(EDGE_TILES[e]) == 1)

# NEIGHBOURS[tile][side]: the tile across that side, or None at the board's boundary.
NEIGHBOURS = tuple(
    tuple(next((t for t, _ in EDGE_TILES[TILE_EDGES[tile][side]] if t != tile), None) for side in range(4))
    for tile in range(9)
)


def open_sides(tile_type: str, orientation: int) -> frozenset[int]:
    """The sides (0 top, 1 right, 2 bottom, 3 left) where a tile has its lenses removed."""
    first, second = (1, 2) if tile_type == "N" else (1, 3)
    return frozenset({(first + orientation) % 4, (second + orientation) % 4})


def edge_location(edge: str) -> tuple[int, int]:
    """The edge's point (x, y) on the course's 7x7 grid, where tile centres are at odd (x, y)."""
    index = EDGES.index(edge)
    tile, side = EDGE_TILES[index][0]
    cx, cy = 2 * (tile % 3) + 1, 2 * (tile // 3) + 1
    dx, dy = ((0, -1), (1, 0), (0, 1), (-1, 0))[side]
    return cx + dx, cy + dy


@dataclass(frozen=True)
class Board:
    """Tile types and orientations in positions 0-8, and the boats as (colour, edge index) pairs."""

    types: tuple[str, ...]
    orientations: tuple[int, ...]
    boats: tuple[tuple[str, int], ...]  # (colour, edge) in B, G, R, Y order

    def boat_at(self, edge: int) -> str | None:
        return next((colour for colour, e in self.boats if e == edge), None)

    def is_open(self, tile: int, side: int) -> bool:
        return side in open_sides(self.types[tile], self.orientations[tile])

    def __str__(self) -> str:
        return format_board(self)


@dataclass(frozen=True)
class Objective:
    board: Board
    targets: tuple[tuple[str, int], ...]  # (colour, edge), as listed

    def __str__(self) -> str:
        return f"{format_board(self.board)} {format_targets(self.targets)}"


# --- reading and writing -------------------------------------------------------------------------


def _boat_pairs(text: str, offset: int, what: str) -> list[tuple[str, int]]:
    """Colour-edge pairs from `text`; positions in messages count from `offset` (1-based chars)."""
    if len(text) % 2:
        raise InputFormatError(
            f"{what} must be colour-edge pairs, found an odd number of characters",
            f"character {offset + len(text) - 1}",
        )
    pairs = []
    for i in range(0, len(text), 2):
        colour, edge = text[i], text[i + 1]
        where = f"character {offset + i}"
        if colour not in COLOURS:
            raise InputFormatError(f"boat colour must be one of B, G, R, Y, not {colour!r}", where)
        if edge not in EDGES:
            raise InputFormatError(f"edge must be a letter a-x, not {edge!r}", f"character {offset + i + 1}")
        pairs.append((colour, EDGES.index(edge)))
    return pairs


def parse_tiles(text: str) -> Board:
    """The nine tiles at the start of a board string, as a Board without boats (for questions
    about tiles alone, such as overlap)."""
    if len(text) < 18:
        raise InputFormatError(f"a board string starts with 9 tiles (18 characters), got {len(text)} characters")
    types, orientations = [], []
    for tile in range(9):
        kind, turn = text[2 * tile], text[2 * tile + 1]
        where = f"tile {tile} (character {2 * tile + 1})"
        if kind not in TILE_TYPES:
            raise InputFormatError(f"tile type must be N or O, not {kind!r}", where)
        if turn not in "0123":
            raise InputFormatError(f"tile orientation must be 0-3, not {turn!r}", where)
        types.append(kind)
        orientations.append(int(turn))
    for kind, count in TILE_COUNT.items():
        if types.count(kind) != count:
            raise InputFormatError(f"a board has exactly 6 N and 3 O tiles, this one has {types.count(kind)} {kind}")
    return Board(tuple(types), tuple(orientations), ())


def parse_board(text: str) -> Board:
    """A well-formed board string as a Board; InputFormatError says what is malformed and where.

    Well-formed is only the shape (the course's isBoardStringWellFormed); see `validity_problem`.
    """
    if len(text) < 20:
        raise InputFormatError(f"a board string is 9 tiles and 1-4 boats (20-26 characters), got {len(text)}")
    tiles = parse_tiles(text[:18])
    boats = _boat_pairs(text[18:], 19, "boats")
    if len(boats) > MAX_BOATS:
        raise InputFormatError(f"at most {MAX_BOATS} boats, got {len(boats)}")
    colours = [c for c, _ in boats]
    if colours != sorted(set(colours), key=COLOURS.index):
        raise InputFormatError(f"boats must be distinct colours in B, G, R, Y order, got {''.join(colours)}")
    return Board(tiles.types, tiles.orientations, tuple(boats))


def format_board(board: Board) -> str:
    tiles = "".join(f"{k}{o}" for k, o in zip(board.types, board.orientations, strict=True))
    return tiles + format_targets(board.boats)


def parse_targets(text: str, offset: int = 1) -> tuple[tuple[str, int], ...]:
    """Target placements, colour-edge pairs in any order: 1-4 boats, each colour once. Positions in
    messages count from `offset` (the target's first character in its line)."""
    if not text:
        raise InputFormatError("a target names 1-4 boats, got none")
    pairs = _boat_pairs(text, offset, "a target")
    if len(pairs) > MAX_BOATS:
        raise InputFormatError(f"a target names at most {MAX_BOATS} boats, got {len(pairs)}")
    colours = [c for c, _ in pairs]
    if len(set(colours)) != len(colours):
        raise InputFormatError(f"a target names each colour once, got {''.join(colours)}")
    return tuple(pairs)


def format_targets(pairs) -> str:
    return "".join(f"{c}{EDGES[e]}" for c, e in pairs)


def is_well_formed(text: str) -> bool:
    try:
        parse_board(text)
    except InputFormatError:
        return False
    return True


def validity_problem(board: Board) -> str | None:
    """Why a well-formed board is not valid (two boats on an edge, overlapping tiles), or None."""
    edges = [e for _, e in board.boats]
    for edge in edges:
        if edges.count(edge) > 1:
            return f"two boats on edge {EDGES[edge]}"
    for tile in range(9):
        for side in (RIGHT, BOTTOM):
            other = NEIGHBOURS[tile][side]
            if other is not None and tiles_overlap(board, tile, other):
                return f"tiles {tile} and {other} overlap (both closed at edge {EDGES[TILE_EDGES[tile][side]]})"
    return None


def is_valid(text: str) -> bool:
    try:
        board = parse_board(text)
    except InputFormatError:
        return False
    return validity_problem(board) is None


def parse_valid_board(text: str) -> Board:
    board = parse_board(text)
    problem = validity_problem(board)
    if problem:
        raise InputFormatError(f"invalid board: {problem}")
    return board


def parse_objective(line: str) -> Objective:
    """`BOARD TARGET` (whitespace between) as an Objective: a valid board, targets on its boats
    and on boundary edges. Positions in messages count from the line's first character, for the
    target as for the board."""
    words = list(re.finditer(r"\S+", line))
    if len(words) != 2:
        raise InputFormatError(f"an objective is `BOARD TARGET`, got {counted(len(words), 'word')}")
    board = parse_valid_board(words[0][0])
    targets = parse_targets(words[1][0], words[1].start() + 1)
    colours = {c for c, _ in board.boats}
    for colour, edge in targets:
        if colour not in colours:
            raise InputFormatError(f"target names boat {colour}, which is not on the board")
        if edge not in BOUNDARY_EDGES:
            raise InputFormatError(f"target {colour}{EDGES[edge]} is not on the board's boundary edges")
    return Objective(board, targets)


def parse_moves(text: str) -> list[int]:
    """A solution: tile digits 0-8, one per quarter-turn (an empty string is no move)."""
    for i, char in enumerate(text):
        if char not in "012345678":
            raise InputFormatError(f"a move is a tile digit 0-8, not {char!r}", f"move {i + 1}")
    return [int(c) for c in text]


# --- the rules -----------------------------------------------------------------------------------


def shared_edge(tile1: int, tile2: int) -> int | None:
    """The side of tile1 facing tile2 when they are adjacent, else None."""
    return next((side for side in range(4) if NEIGHBOURS[tile1][side] == tile2), None)


def tiles_overlap(board: Board, tile1: int, tile2: int) -> bool:
    """Adjacent tiles that are both closed at their shared edge (an impossible placement)."""
    side = shared_edge(tile1, tile2)
    return side is not None and not board.is_open(tile1, side) and not board.is_open(tile2, (side + 2) % 4)


def tiles_interlock(board: Board, tile1: int, tile2: int) -> bool:
    """Adjacent tiles with no gap at their shared edge (a lens of one fills the other's cut)."""
    side = shared_edge(tile1, tile2)
    return side is not None and not (board.is_open(tile1, side) and board.is_open(tile2, (side + 2) % 4))


def turn_problem(board: Board, tile: int) -> str | None:
    """Why `tile` cannot turn now, or None when it can."""
    if not any(board.boat_at(e) for e in TILE_EDGES[tile]):
        return f"no boat on tile {tile}'s edges"
    for side in range(4):
        other = NEIGHBOURS[tile][side]
        if other is not None and not board.is_open(other, (side + 2) % 4):
            return f"tile {other} is closed at edge {EDGES[TILE_EDGES[tile][side]]}"
    return None


def can_rotate(board: Board, tile: int) -> bool:
    return turn_problem(board, tile) is None


def rotatable_tiles(board: Board) -> list[int]:
    return [tile for tile in range(9) if can_rotate(board, tile)]


def rotate(board: Board, tile: int) -> Board:
    """Turn `tile` a quarter clockwise with its boats (top -> right -> bottom -> left), whether or not
    the move is allowed (check `can_rotate` first)."""
    edges = TILE_EDGES[tile]
    moved = {edges[side]: edges[(side + 1) % 4] for side in range(4)}
    orientations = list(board.orientations)
    orientations[tile] = (orientations[tile] + 1) % 4
    boats = tuple((colour, moved.get(edge, edge)) for colour, edge in board.boats)
    return Board(board.types, tuple(orientations), boats)


def is_solved(board: Board, targets) -> bool:
    """Every listed boat is on its target edge (orientations and unlisted boats do not matter)."""
    where = dict(board.boats)
    return all(where.get(colour) == edge for colour, edge in targets)


def replay(objective: Objective, moves: list[int]) -> tuple[Board, str | None]:
    """Play `moves` from the objective's board: the board reached, and the first illegal move and
    why (None when all moves were legal)."""
    board = objective.board
    for turn, tile in enumerate(moves, 1):
        problem = turn_problem(board, tile)
        if problem:
            return board, f"move {turn} (tile {tile}): {problem}"
        board = rotate(board, tile)
    return board, None
