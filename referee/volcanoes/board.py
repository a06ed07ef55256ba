"""The board of Volcanoes: 80 triangular tiles of a pentakis icosidodecahedron. Data, built once.

Tiles are numbered as CodinGame orders them: 0..39 are N01..N40, 40..79 are S01..S40; tile k and
tile k+40 are antipodes. Each tile has three neighbours, listed in the order the init block sends.
"""
from __future__ import annotations

import numpy as np

N_TILES = 80
HALF = 40
NAMES = tuple(f"N{i:02d}" for i in range(1, 41)) + tuple(f"S{i:02d}" for i in range(1, 41))
INDEX = {name: i for i, name in enumerate(NAMES)}

NEIGHBOURS = (
    (6, 1, 4), (9, 2, 0), (12, 3, 1), (15, 4, 2), (18, 0, 3),  #  0..4
    (6, 20, 19), (0, 7, 5), (6, 22, 8), (9, 24, 7), (1, 10, 8),  #  5..9
    (9, 26, 11), (12, 28, 10), (2, 13, 11), (12, 30, 14), (15, 32, 13),  # 10..14
    (3, 16, 14), (15, 34, 17), (18, 36, 16), (4, 19, 17), (18, 38, 5),  # 15..19
    (21, 5, 39), (71, 20, 22), (21, 23, 7), (73, 22, 24), (25, 8, 23),  # 20..24
    (75, 24, 26), (25, 27, 10), (77, 26, 28), (29, 11, 27), (79, 28, 30),  # 25..29
    (29, 31, 13), (61, 30, 32), (33, 14, 31), (63, 32, 34), (33, 35, 16),  # 30..34
    (65, 34, 36), (37, 17, 35), (67, 36, 38), (37, 39, 19), (69, 38, 20),  # 35..39
    (46, 41, 44), (49, 42, 40), (52, 43, 41), (55, 44, 42), (58, 40, 43),  # 40..44
    (46, 60, 59), (40, 45, 47), (46, 48, 62), (49, 64, 47), (41, 48, 50),  # 45..49
    (49, 51, 66), (52, 68, 50), (42, 51, 53), (52, 54, 70), (55, 72, 53),  # 50..54
    (43, 54, 56), (55, 57, 74), (58, 76, 56), (44, 57, 59), (58, 45, 78),  # 55..59
    (61, 45, 79), (31, 62, 60), (61, 63, 47), (33, 64, 62), (65, 48, 63),  # 60..64
    (35, 66, 64), (65, 67, 50), (37, 68, 66), (69, 51, 67), (39, 70, 68),  # 65..69
    (69, 71, 53), (21, 72, 70), (73, 54, 71), (23, 74, 72), (73, 75, 56),  # 70..74
    (25, 76, 74), (77, 57, 75), (27, 78, 76), (77, 79, 59), (29, 60, 78),  # 75..79
)

NEIGHBOUR_ARRAY = np.array(NEIGHBOURS, dtype=np.int64)
ANTIPODE = np.array([(k + HALF) % N_TILES for k in range(N_TILES)], dtype=np.int64)


# The ten edges joining the hemispheres (N22..N40 to S22..S40): every winning chain crosses one.
EQUATOR_EDGES = tuple(
    (a, b) for a in range(HALF) for b in NEIGHBOURS[a] if b >= HALF
)


def antipode(tile: int) -> int:
    return (tile + HALF) % N_TILES


def init_block() -> list[str]:
    """The lines CodinGame sends each player on its first turn, before the first position."""
    return [str(N_TILES)] + [f"{name} {a} {b} {c}" for name, (a, b, c) in zip(NAMES, NEIGHBOURS)]
