"""Volcanoes' game constants and CodinGame's limits for it, defined once: the referee, every rules
engine (numba, pure Python, reference), every bot's adapter and the arena import them from here.
Standard library only, so the CodinGame bundle can carry it.

numba freezes these into compiled kernels, and its cache does not notice an edit to this file:
after changing a value, delete the `__pycache__/*.nb*` files of the packages that use it."""

from __future__ import annotations

from dataclasses import dataclass

BLUE, ORANGE, GROWTH = 1, -1, 0  # the players (a level's sign), and the growth turn's actor
CYCLE = (BLUE, ORANGE, GROWTH, ORANGE, BLUE, GROWTH)  # who acts on turn t (0-based): CYCLE[t % 6]
MAX_LEVEL = 4  # a volcano at this level (either sign) is dormant
MAX_ERUPTION_PHASES = 100  # more phases in one turn and the game is a draw
MAX_TURNS = 200  # turns (growth turns count) before the game is a draw
ONGOING, BLUE_WINS, ORANGE_WINS, DRAW = 0, 1, 2, 3  # outcomes

# CodinGame's time limits, in milliseconds (the one unit of a turn limit, from a command line to the
# adapter that turns it into a bot's budget in seconds).
TURN_MS = 100.0  # an answer after a player's first
FIRST_TURN_MS = 1000.0  # a player's first answer (its process starts on this clock too)
GRACE_MS = 50.0  # soft timeouts (CodinGame's newer mode): an answer this late is an overrun, not a loss
OVERRUNS_ALLOWED = 2  # soft timeouts: the next overrun forfeits


@dataclass(frozen=True)
class Limits:
    """One seat's time limits, in milliseconds: for a turn, and for its first turn."""

    turn_ms: float = TURN_MS
    first_turn_ms: float = FIRST_TURN_MS

    def with_turn_ms(self, turn_ms: float | None) -> Limits:
        """These limits with `turn_ms` for a turn (time odds), the first turn scaled alike; these
        limits themselves for None."""
        if turn_ms is None:
            return self
        scale = turn_ms / self.turn_ms
        return Limits(scale * self.turn_ms, scale * self.first_turn_ms)


CODINGAME = Limits()
