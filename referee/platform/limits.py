"""CodinGame's limits, the same for every game: the one place each is written. The referees, the bots'
adapters, the arena's games and the bundler read them here. Standard library only, so the CodinGame
bundle can carry it.

Times are in milliseconds, the one unit of a turn limit from a command line to the adapter that turns
it into a bot's budget in seconds."""

from __future__ import annotations

from dataclasses import dataclass

TURN_MS = 100.0  # an answer after a player's first
FIRST_TURN_MS = 1000.0  # a player's first answer (its process starts on this clock too)
GRACE_MS = 50.0  # soft timeouts (CodinGame's newer mode): an answer this late is an overrun, not a loss (the SDK's
# GameManager.SOFT_TIMELIMIT_EXTRA)
OVERRUNS_ALLOWED = 2  # soft timeouts: the next overrun forfeits (AbstractPlayer.MAX_SOFT_TIMELIMIT_EXCEEDS)
MAX_ANSWER_BYTES = 10_000  # an answer's lines are read into one buffer of this size (the SDK's Agent)
STDERR_BYTES_PER_TURN = 4096  # what CodinGame shows of a turn's stderr: the most a seat keeps per turn
CODE_UNITS = 100_000  # the longest submission, in UTF-16 code units


@dataclass(frozen=True)
class Limits:
    """One seat's time limits, in milliseconds: for a turn, and for its first turn."""

    turn_ms: float = TURN_MS
    first_turn_ms: float = FIRST_TURN_MS

    @classmethod
    def given(cls, turn_ms: float | None = None, first_turn_ms: float | None = None) -> Limits:
        """The limits a command line or a game's settings give, CodinGame's where None."""
        return cls(TURN_MS if turn_ms is None else turn_ms, FIRST_TURN_MS if first_turn_ms is None else first_turn_ms)

    def with_turn_ms(self, turn_ms: float | None) -> Limits:
        """These limits with `turn_ms` for a turn (time odds), the first turn scaled alike; these
        limits themselves for None."""
        if turn_ms is None:
            return self
        scale = turn_ms / self.turn_ms
        return Limits(scale * self.turn_ms, scale * self.first_turn_ms)


CODINGAME = Limits()
