"""The learned prior's features, one tuple of indices for each move (`prior.py` says what each group
describes): what `fit_prior` fits the weights on, and what `prior.Model.scores` must sum alike (a test
checks it). Not bundled: the search only reads the weights through `prior.Model`."""

from __future__ import annotations

from referee.volcanoes.board import NEIGHBOURS

from . import rules
from .prior import (
    ANTI,
    CENTRE,
    EMPTY,
    GAPS,
    KINDS,
    LEADS,
    N_SIZES,
    N_TRIPLES,
    OFFSETS,
    RING,
    SIZE_BUCKETS,
    TRIPLE,
    Race,
    components,
    gap,
    lead,
    phase,
    view,
)


def _touching(v, t, label, sizes, own: bool) -> int:
    """A placement on t among `own` (or the enemy's) components: their count and merged size."""
    seen = []
    size = 1
    for n in NEIGHBOURS[t]:
        c = v[n]
        if c != EMPTY and (c > EMPTY) == own:
            k = label[n]
            if k not in seen:
                seen.append(k)
                size += sizes[k]
    return len(seen) * N_SIZES + (SIZE_BUCKETS[size] if size < len(SIZE_BUCKETS) else N_SIZES - 1)


def features(v: bytes, turns: int, tile: int, label, sizes, sides: tuple) -> tuple[int, ...]:
    """The feature indices of the mover's move on `tile` (see the module's docstring), on the
    mover's view `v` with its `components` and the race's `sides` (`Race.sides`)."""
    a, b, c = NEIGHBOURS[tile]
    ct = v[tile]
    placed = ct == EMPTY
    kind = 0 if placed else 1
    own2 = enemy2 = 0
    for x in RING[tile]:
        if v[x] > EMPTY:
            own2 += 1
        elif v[x] < EMPTY:
            enemy2 += 1
    if placed:
        joins = _touching(v, tile, label, sizes, True)
        blocks = _touching(v, tile, label, sizes, False)
    else:
        joins = blocks = 4 * N_SIZES
    race = []
    for prefix, (own_via, own_best, enemy_via, enemy_best) in zip(("race", "grown"), sides, strict=True):
        state = lead(own_best, enemy_best)
        g_own, g_enemy = gap(own_via[tile], own_best), gap(enemy_via[tile], enemy_best)
        race += [
            OFFSETS[f"{prefix}_own"] + g_own * LEADS + state,
            OFFSETS[f"{prefix}_enemy"] + g_enemy * LEADS + state,
            OFFSETS[f"{prefix}_both"] + g_own * GAPS + g_enemy,
        ]
    return (
        OFFSETS["local"] + (phase(turns) * 4 + ct - EMPTY) * N_TRIPLES + TRIPLE[(v[a] * KINDS + v[b]) * KINDS + v[c]],
        OFFSETS["antipode"] + kind * KINDS + v[ANTI[tile]],
        OFFSETS["ring"] + (kind * 7 + own2) * 7 + enemy2,
        OFFSETS["joins"] + joins,
        OFFSETS["blocks"] + blocks,
        OFFSETS["class"] + CENTRE[tile] * 2 + kind,
        *race,
    )


def move_features(board, turns: int, moves, race: Race | None = None) -> list[tuple[int, ...]]:
    """The features of each move of the player to move after `turns` turns on a `pure.rules` board,
    the race measured on this board, or given (measured on another)."""
    mover = rules.ACTORS[turns]
    v = view(board, mover)
    label, sizes = components(v)
    sides = (race or Race(board)).sides(mover)
    return [features(v, turns, t, label, sizes, sides) for t in moves]
