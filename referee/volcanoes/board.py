"""The board of Volcanoes: 80 triangular tiles of a pentakis icosidodecahedron. Data, built once.

Tiles are numbered as CodinGame orders them: 0..39 are N01..N40, 40..79 are S01..S40; tile k and
tile k+40 are antipodes. Each tile has three neighbours, listed in the order the init block sends.
"""

from __future__ import annotations

N_TILES = 80
HALF = 40
NAMES = tuple(f"N{i:02d}" for i in range(1, 41)) + tuple(f"S{i:02d}" for i in range(1, 41))
INDEX = {name: i for i, name in enumerate(NAMES)}

NEIGHBOURS = (
    (6, 1, 4),
    (9, 2, 0),
    (12, 3, 1),
    (15, 4, 2),
    (18, 0, 3),  #  0..4
    (6, 20, 19),
    (0, 7, 5),
    (6, 22, 8),
    (9, 24, 7),
    (1, 10, 8),  #  5..9
    (9, 26, 11),
    (12, 28, 10),
    (2, 13, 11),
    (12, 30, 14),
    (15, 32, 13),  # 10..14
    (3, 16, 14),
    (15, 34, 17),
    (18, 36, 16),
    (4, 19, 17),
    (18, 38, 5),  # 15..19
    (21, 5, 39),
    (71, 20, 22),
    (21, 23, 7),
    (73, 22, 24),
    (25, 8, 23),  # 20..24
    (75, 24, 26),
    (25, 27, 10),
    (77, 26, 28),
    (29, 11, 27),
    (79, 28, 30),  # 25..29
    (29, 31, 13),
    (61, 30, 32),
    (33, 14, 31),
    (63, 32, 34),
    (33, 35, 16),  # 30..34
    (65, 34, 36),
    (37, 17, 35),
    (67, 36, 38),
    (37, 39, 19),
    (69, 38, 20),  # 35..39
    (46, 41, 44),
    (49, 42, 40),
    (52, 43, 41),
    (55, 44, 42),
    (58, 40, 43),  # 40..44
    (46, 60, 59),
    (40, 45, 47),
    (46, 48, 62),
    (49, 64, 47),
    (41, 48, 50),  # 45..49
    (49, 51, 66),
    (52, 68, 50),
    (42, 51, 53),
    (52, 54, 70),
    (55, 72, 53),  # 50..54
    (43, 54, 56),
    (55, 57, 74),
    (58, 76, 56),
    (44, 57, 59),
    (58, 45, 78),  # 55..59
    (61, 45, 79),
    (31, 62, 60),
    (61, 63, 47),
    (33, 64, 62),
    (65, 48, 63),  # 60..64
    (35, 66, 64),
    (65, 67, 50),
    (37, 68, 66),
    (69, 51, 67),
    (39, 70, 68),  # 65..69
    (69, 71, 53),
    (21, 72, 70),
    (73, 54, 71),
    (23, 74, 72),
    (73, 75, 56),  # 70..74
    (25, 76, 74),
    (77, 57, 75),
    (27, 78, 76),
    (77, 79, 59),
    (29, 60, 78),  # 75..79
)


# Where each tile sits on CodinGame's flat map: the face of the icosahedron (1-20) and the part of
# it (A centre; B, C, D corners), tile order. Faces 1-5 point up on top of a strip where down faces
# 6-10 and up faces 11-15 alternate; faces 16-20 point down below it.
NET = tuple(
    (int(cell[:-1]), cell[-1])
    for cell in """
    1B 2B 3B 4B 5B 1D 1A 1C 2D 2A 2C 3D 3A 3C 4D 4A 4C 5D 5A 5C 6C 6A 6D 11B 7C 7A 7D 12B 8C 8A
    8D 13B 9C 9A 9D 14B 10C 10A 10D 15B 18B 19B 20B 16B 17B 18C 18A 18D 19C 19A 19D 20C 20A 20D
    16C 16A 16D 17C 17A 17D 13D 13A 13C 9B 14D 14A 14C 10B 15D 15A 15C 6B 11D 11A 11C 7B 12D 12A
    12C 8B""".split()
)

# The ten edges joining the hemispheres (N22..N40 to S22..S40): every winning chain crosses one.
EQUATOR_EDGES = tuple((a, b) for a in range(HALF) for b in NEIGHBOURS[a] if b >= HALF)


def antipode(tile: int) -> int:
    return (tile + HALF) % N_TILES


def _antipode_steps() -> int:
    """The fewest steps from any tile to its antipode (a breadth-first search from each tile)."""
    fewest = N_TILES
    for start in range(N_TILES):
        steps = {start: 0}
        queue = [start]
        for tile in queue:
            for n in NEIGHBOURS[tile]:
                if n not in steps:
                    steps[n] = steps[tile] + 1
                    queue.append(n)
        fewest = min(fewest, steps[antipode(start)])
    return fewest


# The fewest tiles that join a tile to its antipode (12): a player with fewer pieces has no connection.
SHORTEST_CHAIN = _antipode_steps() + 1


def init_block() -> list[str]:
    """The lines CodinGame sends each player on its first turn, before the first position."""
    return [str(N_TILES)] + [f"{name} {a} {b} {c}" for name, (a, b, c) in zip(NAMES, NEIGHBOURS, strict=True)]
