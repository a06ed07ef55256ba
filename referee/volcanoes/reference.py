"""The rules of Volcanoes in plain Python: slow and readable, the oracle the numba engine is tested
against. `rules.py` holds the same rules as jitted kernels.

A position is the 80 signed levels (blue volcanoes positive, orange negative, 0 empty), the dormant
flags, and the number of turns played. Turns go blue, orange, growth, orange, blue, growth, ...;
growth turns count as turns.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .board import HALF, N_TILES, NEIGHBOURS

# Constants, re-exported as the reference's names for them.
from .constants import BLUE, CYCLE, GROWTH, ORANGE  # noqa: F401
from .constants import BLUE_WINS, DRAW, ONGOING, ORANGE_WINS  # noqa: F401
from .constants import MAX_ERUPTION_PHASES, MAX_LEVEL  # noqa: F401


def actor(turn: int) -> int:
    """Who acts on 1-based turn `turn`: BLUE, ORANGE or GROWTH."""
    return CYCLE[(turn - 1) % 6]


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


@dataclass
class Position:
    levels: list[int] = field(default_factory=lambda: [0] * N_TILES)
    dormant: list[bool] = field(default_factory=lambda: [False] * N_TILES)
    turns_played: int = 0

    def copy(self) -> Position:
        return Position(self.levels[:], self.dormant[:], self.turns_played)

    @property
    def next_actor(self) -> int:
        return actor(self.turns_played + 1)


def legal_moves(pos: Position, player: int) -> list[int]:
    """Empty tiles and the player's own non-dormant volcanoes below the top level, in tile order."""
    return [
        t
        for t, level in enumerate(pos.levels)
        if level == 0 or (_sign(level) == player and abs(level) < MAX_LEVEL and not pos.dormant[t])
    ]


def _erupt(pos: Position, erupting: list[int]) -> int:
    """Resolve eruptions phase by phase; returns the number of phases (stops past the limit)."""
    levels, dormant = pos.levels, pos.dormant
    phases = 0
    while erupting:
        phases += 1
        if phases > MAX_ERUPTION_PHASES:
            return phases
        start = levels[:]
        delta = [0] * N_TILES
        touched = set()
        for volcano in erupting:
            dormant[volcano] = True
            owner = _sign(start[volcano])
            for n in NEIGHBOURS[volcano]:
                touched.add(n)
                if start[n] == 0 or _sign(start[n]) == owner:
                    delta[n] += owner
                else:
                    delta[n] -= MAX_LEVEL * _sign(start[n])
        erupting = []
        for t in sorted(touched):
            before, after = start[t], start[t] + delta[t]
            if before != 0 and _sign(after) != _sign(before):
                after = 0  # pushed across zero: the volcano is destroyed
            if abs(after) >= MAX_LEVEL:
                after = MAX_LEVEL * _sign(after)
                if abs(before) < MAX_LEVEL:
                    erupting.append(t)
            levels[t] = after
        for t in touched:
            if abs(levels[t]) < MAX_LEVEL:
                dormant[t] = False
    return phases


def _connects(levels: list[int], player: int) -> bool:
    """Whether the player's volcanoes join some tile to its antipode."""
    component = [-1] * N_TILES
    for root in range(N_TILES):
        if component[root] >= 0 or _sign(levels[root]) != player:
            continue
        stack = [root]
        component[root] = root
        while stack:
            t = stack.pop()
            for n in NEIGHBOURS[t]:
                if component[n] < 0 and _sign(levels[n]) == player:
                    component[n] = root
                    stack.append(n)
    return any(component[t] >= 0 and component[t] == component[t + HALF] for t in range(HALF))


def _outcome(pos: Position, phases: int) -> int:
    if phases > MAX_ERUPTION_PHASES:
        return DRAW
    blue, orange = _connects(pos.levels, BLUE), _connects(pos.levels, ORANGE)
    if blue and orange:
        return DRAW
    return BLUE_WINS if blue else ORANGE_WINS if orange else ONGOING


def play(pos: Position, tile: int) -> int:
    """The next actor (a player) raises `tile`; returns the outcome. The move must be legal."""
    player = pos.next_actor
    assert player != GROWTH, "the next turn is a growth turn"
    assert tile in legal_moves(pos, player), "illegal move"
    pos.levels[tile] += player
    pos.turns_played += 1
    phases = _erupt(pos, [tile]) if abs(pos.levels[tile]) == MAX_LEVEL else 0
    return _outcome(pos, phases)


def grow(pos: Position) -> int:
    """The growth turn: every non-dormant volcano rises a level; returns the outcome."""
    assert pos.next_actor == GROWTH, "the next turn is a player's"
    erupting = []
    for t, level in enumerate(pos.levels):
        if level != 0 and not pos.dormant[t] and abs(level) < MAX_LEVEL:
            pos.levels[t] = level + _sign(level)
            if abs(pos.levels[t]) == MAX_LEVEL:
                erupting.append(t)
    pos.turns_played += 1
    return _outcome(pos, _erupt(pos, erupting))
