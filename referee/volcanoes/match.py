"""One game of Volcanoes between two seats, as CodinGame's referee plays it -> result and replay.

A seat is anything with `ask(lines, timeout) -> (line, seconds)` raising `BotError` on failure,
`take_stderr() -> str` and `close()`: a `BotProcess` for a command line, or an in-process bot adapter
(`InProcessSeat`). Each seat has its time limits (`Limits`, in ms), the settings' or its own (time
odds), fixed for the game.
"""

from __future__ import annotations

import gc
import io
import time
from dataclasses import asdict, dataclass, field
from typing import Protocol

import numpy as np

from ..platform.clock import waited_for_cpu
from ..platform.lateness import late_by_machine
from ..platform.java_random import JavaRandom
from ..platform.bot_errors import BotError, BotExited, BotTimeout
from ..platform.stderr_sink import why_it_ended
from . import rules
from .board import N_TILES, NAMES
from ..platform.limits import FIRST_TURN_MS, GRACE_MS, OVERRUNS_ALLOWED, TURN_MS, Limits
from .protocol import InvalidMove, init_block, parse_answer, position_line, valid_line

COLOURS = {rules.BLUE: "blue", rules.ORANGE: "orange"}


class Seat(Protocol):
    def ask(self, lines: list[str], timeout: float) -> tuple[str, float]: ...

    def take_stderr(self) -> str: ...

    def answers_within(self, cpu_seconds: float, wall_seconds: float) -> bool: ...

    def close(self) -> None: ...


class InProcessSeat:
    """A player in this process as a seat: `player.answer(lines, started) -> str` gets the same lines
    a process would. A turn cannot be interrupted in-process, so an answer later than the limit is a
    timeout after the fact; an exception the player raises is a crash, as it would be in a process
    (the game ends with it, the run goes on); the seat's stderr is what the player wrote to `log`."""

    def __init__(self, player, log: io.StringIO | None = None):
        self.player = player
        self._log = log

    def ask(self, lines: list[str], timeout: float) -> tuple[str, float]:
        # No garbage collection inside the timed turn, as in a bot's own process: a full collection
        # in a process that has loaded numba takes tens of milliseconds. It runs between turns.
        collecting = gc.isenabled()
        gc.disable()
        try:
            started, ran, waited = time.perf_counter(), time.thread_time(), waited_for_cpu()
            answer = self.player.answer(lines, started)
            seconds = time.perf_counter() - started
        except Exception as exc:
            raise BotExited(f"raised {type(exc).__name__}: {exc}") from exc
        finally:
            if collecting:
                gc.enable()
        if seconds > timeout:
            late = BotTimeout(f"answered after {seconds * 1000:.0f} ms")
            late.ran, late.waited = time.thread_time() - ran, waited_for_cpu() - waited  # the bot's thread is this one
            raise late
        return answer, seconds

    def answers_within(self, cpu_seconds: float, wall_seconds: float) -> bool:
        """Its late answer came (a turn in this process ends only with one): it needed no more than
        the processor time it ran, and `late_by_machine` judges that."""
        return True

    def take_stderr(self) -> str:
        if self._log is None:
            return ""
        text = self._log.getvalue()
        self._log.seek(0)
        self._log.truncate()
        return text

    def close(self) -> None:
        pass


@dataclass(frozen=True)
class Settings:
    """A game's rules of play: CodinGame's by default (`constants`)."""

    turn_ms: float = TURN_MS
    first_turn_ms: float = FIRST_TURN_MS
    max_turns: int = rules.MAX_TURNS
    soft_timeouts: bool = False  # CodinGame's newer mode: an overrun within the grace is no loss...
    grace_ms: float = GRACE_MS
    overruns_allowed: int = OVERRUNS_ALLOWED  # ...until there are more overruns than this

    def limits(self, turn_ms: float | None = None) -> Limits:
        """A seat's limits: the settings', or with its own turn limit `turn_ms` (time odds), its first
        turn scaled alike. The one computation of a seat's limits, for the referee's clock and for the
        adapter that budgets an in-process bot from them."""
        return Limits(self.turn_ms, self.first_turn_ms).with_turn_ms(turn_ms)


@dataclass
class Turn:
    turn: int
    actor: str  # "blue", "orange" or "growth"
    sent: list[str] = field(default_factory=list)
    received: str | None = None
    move: str | None = None  # the tile played (RANDOM resolved)
    time_ms: float | None = None
    stderr: str = ""
    levels: list[int] = field(default_factory=list)  # after the turn, blue positive
    dormant: list[str] = field(default_factory=list)  # after the turn


@dataclass
class Result:
    seed: int
    winner: str  # "blue", "orange" or "draw"
    reason: str  # connection, simultaneous, eruptions, max-turns, timeout, invalid, crash
    detail: str
    turns: int
    turn_log: list[Turn]
    moves: list[str]  # tile names and GROW, in order
    late: str = ""  # a timeout the machine caused (`lateness.late_by_machine`): who, and how long it waited

    def replay(self, players: dict[str, str]) -> dict:
        """The replay file's content (JSON-ready)."""
        return {
            "game": "volcanoes",
            "seed": self.seed,
            "players": players,
            "winner": self.winner,
            "reason": self.reason,
            "detail": self.detail,
            "turns": self.turns,
            "moves": " ".join(self.moves),
            "turn_log": [asdict(t) for t in self.turn_log],
        }


_OUTCOMES = {
    rules.BLUE_WINS: ("blue", "connection", "blue joined a tile to its antipode"),
    rules.ORANGE_WINS: ("orange", "connection", "orange joined a tile to its antipode"),
}


def play_game(
    blue: Seat,
    orange: Seat,
    seed: int,
    settings: Settings = Settings(),
    limits: tuple[Limits | None, Limits | None] = (None, None),
) -> Result:
    """Play one game to its end; the seats are not closed here. `limits` (blue's, orange's): a seat's
    own limits (`Settings.limits`) instead of the settings' (time odds)."""
    seats = {rules.BLUE: blue, rules.ORANGE: orange}
    own = [settings.limits() if given is None else given for given in limits]
    limits_of = {rules.BLUE: own[0], rules.ORANGE: own[1]}  # fixed for the game
    has_played = {rules.BLUE: False, rules.ORANGE: False}
    overruns = {rules.BLUE: 0, rules.ORANGE: 0}
    rng = JavaRandom(seed)
    levels, dormant = rules.new_state()
    valid = np.empty(N_TILES, dtype=np.int64)
    log: list[Turn] = []
    moves: list[str] = []

    def finish(winner: str, reason: str, detail: str, turn: int) -> Result:
        return Result(seed, winner, reason, detail, turn, log, moves)

    def forfeit(player: int, reason: str, detail: str, turn: int) -> Result:
        colour = COLOURS[player]
        return finish(COLOURS[-player], reason, f"{colour} {detail}", turn)

    for turn in range(1, settings.max_turns + 1):
        who = int(rules.actor(turn))
        if who == rules.GROWTH:
            entry = Turn(turn, "growth")
            log.append(entry)
            moves.append("GROW")
            outcome = rules.grow(levels, dormant)
        else:
            n_valid = rules.legal_moves(levels, dormant, who, valid)
            valid_tiles = [int(t) for t in valid[:n_valid]]
            lines = [] if has_played[who] else init_block()
            lines += [position_line(levels, who), valid_line(valid_tiles)]
            limit_ms = limits_of[who].turn_ms if has_played[who] else limits_of[who].first_turn_ms
            wait_ms = limit_ms + (settings.grace_ms if settings.soft_timeouts else 0.0)
            entry = Turn(turn, COLOURS[who], sent=lines)
            log.append(entry)
            has_played[who] = True
            seat = seats[who]
            try:
                line, seconds = seat.ask(lines, wait_ms / 1000.0)
            except BotError as exc:
                entry.stderr = seat.take_stderr()
                detail = str(exc)
                said = why_it_ended(entry.stderr or "")[:200] if isinstance(exc, BotExited) else ""
                if said and said not in detail:  # (a crash was `exited with code 3`, the bot's words unsaid)
                    detail = f"{detail}: {said}"
                result = forfeit(who, exc.reason, detail, turn)
                if isinstance(exc, BotTimeout) and late_by_machine(exc.ran, exc.waited, wait_ms / 1000.0, seat):
                    waited = f"{exc.waited * 1000:.0f} ms of its {wait_ms:g} ms"
                    result.late = f"{COLOURS[who]} timed out waiting {waited} for a processor"
                return result
            entry.stderr = seat.take_stderr()
            entry.received = line
            entry.time_ms = round(seconds * 1000.0, 3)
            # Only the soft mode waits past the limit; in the hard mode an answer read just in time
            # may still measure a hair over it, and is no overrun.
            if settings.soft_timeouts and entry.time_ms > limit_ms:
                overruns[who] += 1
                if overruns[who] > settings.overruns_allowed:
                    return forfeit(who, "timeout", f"overran its time {overruns[who]} times", turn)
            try:
                tile = parse_answer(line, valid_tiles, rng)
            except InvalidMove as exc:
                return forfeit(who, "invalid", f"played an invalid move: {exc}", turn)
            entry.move = NAMES[tile]
            moves.append(NAMES[tile])
            outcome = rules.play(levels, dormant, who, tile)
        entry.levels = [int(x) for x in levels]
        entry.dormant = [NAMES[t] for t in range(N_TILES) if dormant[t]]
        if outcome in _OUTCOMES:
            return finish(*_OUTCOMES[outcome], turn)
        if outcome == rules.DRAW:
            if rules.connects(levels, rules.BLUE) and rules.connects(levels, rules.ORANGE):
                return finish("draw", "simultaneous", "both players joined a tile to its antipode", turn)
            limit = rules.MAX_ERUPTION_PHASES
            return finish("draw", "eruptions", f"more than {limit} eruption phases in one turn", turn)
    return finish("draw", "max-turns", f"no winner after {settings.max_turns} turns", settings.max_turns)
