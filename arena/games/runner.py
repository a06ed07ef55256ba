"""What the two protocols in which the arena runs the bots have in common (CodinGame's own platform
protocol, `sdk.py`, and the pre-2018 relay protocol, `relay.py`): their games' settings, checks and
skeleton (`RefereeGame`); the referee's process, every wait on it bounded; the seats' processes, on
our clock; the Java command line of a referee jar.

The referee runs as a `BotProcess` (referee/platform/process.py), with its own line limit and its stderr's
end kept: that class already kills every process a child started, even those that left its session,
and registers the child so that the arena's workers, subreapers of their orphans, never take the
referee for a bot's leftover. A class of its own would have had to repeat all of it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import time
from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass
from typing import ClassVar

from arena.games.base import (
    Milliseconds,
    Outcome,
    Player,
    RefereeFailure,
    Seconds,
    stderr_gist,
)
from arena.games.external import ExternalGame
from referee.platform.clock import turn_clock, turn_seconds
from referee.platform.lateness import late_by_machine
from referee.platform.errors import shorten
from referee.platform.limits import MAX_ANSWER_BYTES, STDERR_BYTES_PER_TURN
from referee.platform.bot_commands import split_command
from referee.platform.bot_errors import (
    WHERE_CODINGAME_STOPS,
    BotError,
    BotExited,
    BotStartError,
    BotTimeout,
    TooLong,
    signal_name,
)
from referee.platform.process import BotProcess

# A referee's line can be a replay frame: the SDK itself caps a whole game's view data at 1 MiB.
REFEREE_LINE_BYTES = 4 * 1024 * 1024
REFEREE_STDERR_BYTES = 16 * 1024  # the end of a referee's stderr kept for a failure's report
END_GRACE_S = 2.0  # how long a referee that has given its results may take to exit by itself
FIRST_INPUT_CHARS = 4000  # of each seat's first input, kept in Outcome.data
EXIT_POLL_S = 0.1  # while waiting for a line, how often to look whether the referee has exited
CRASH_WORDS = 200  # of what a crashed bot said last on stderr, kept in its error's line


@dataclass
class RefereeGame(ExternalGame):
    """A game whose external referee we drive line by line, running and timing the bots ourselves
    (protocols C and D): the settings they share; each game's processes opened and closed around
    `_play`, the protocol's own."""

    _: KW_ONLY
    send_seed: bool = True  # give the referee the arena's seed
    java_options: list[str] | None = None  # the JVM's (None: `default_java_options`)
    first_turn_ms: Milliseconds | None = None  # a player's limit for its first answer
    turn_ms: Milliseconds | None = None  # and for each after
    reply_s: Seconds = 30.0  # the longest wait for any one line of the referee
    game_s: Seconds = 300.0  # for the whole game

    jar_main: ClassVar[tuple[str, ...]]  # how `java` runs a lone jar (`java_command`'s MAIN)
    default_java_options: ClassVar[tuple[str, ...]] = ()
    # True where the referee asks each turn's limit: `first_turn_ms` and `turn_ms` override it, and
    # None keeps it; else they are the limits.
    referee_asks_limits: ClassVar[bool] = False
    seed_advice = "send it the seed (send_seed = true in arena.toml) and check that its referee uses it"

    def __post_init__(self):
        super().__post_init__()
        if self.first_turn_ms is None and not self.referee_asks_limits:
            raise self.mistake("its first_turn_ms is needed: the referee does not ask one")
        if self.turn_ms is None and not self.referee_asks_limits:
            raise self.mistake("its turn_ms is needed: the referee does not ask one")
        self.java_options = list(self.default_java_options if self.java_options is None else self.java_options)

    def java_properties(self) -> list[str]:
        """The JVM system properties (`-Dkey=value`) through which the referee learns its settings."""
        return []

    def referee_command(self) -> tuple[list[str], dict[str, str]]:
        """The referee's argument list and environment (`java_command`)."""
        return java_command(self.command, self.jar_main, self.java_options, self.java_properties())

    def play(self, seed: int, players: list[Player], bot_seeds: list[int]) -> Outcome:
        if len(players) != self.seats:
            raise ValueError(f"{self.name} is a {self.seats}-player game, not {len(players)}")
        args, env = self.referee_command()
        referee = None
        seats = None
        try:
            referee = Referee(args, env=env, cwd=self.cwd, reply_s=self.reply_s, game_s=self.game_s)
            seats = Seats(players, bot_seeds)
            return self._play(referee, seats, seed)
        finally:
            if seats is not None:
                seats.close()
            if referee is not None:
                referee.close()

    @abstractmethod
    def _play(self, referee: Referee, seats: Seats, seed: int) -> Outcome:
        """One game, the protocol's own way, between the referee and the seats, both open."""

    def override_ms(self, seats: Seats, seat: int) -> float | None:
        """The limit the game's settings give `seat`'s next answer: `first_turn_ms` for its first,
        `turn_ms` after; None where that setting is None."""
        return self.first_turn_ms if seats.answered[seat] == 0 else self.turn_ms

    def limit_ms(self, seats: Seats, seat: int, asked_ms: float | None = None) -> float:
        """`seat`'s limit for its next answer: its `override_ms`, else what the referee asked."""
        override = self.override_ms(seats, seat)
        return float(asked_ms if override is None else override)


def ended(code: int) -> str:
    """How a process ended, from its exit status."""
    if code < 0:
        return f"killed by signal {signal_name(-code)}"
    return f"exited with code {code}"


class Referee:
    """An external referee's process: lines to it, lines from it, each read within `reply_s` and all
    within `game_s` of its start; anything else is a `RefereeFailure` carrying the end of its stderr."""

    def __init__(
        self, args: Sequence[str], *, env: dict[str, str] | None, cwd: str | None, reply_s: float, game_s: float
    ):
        self.reply_s = reply_s
        self.game_s = game_s
        self._deadline = time.perf_counter() + game_s
        try:
            self._proc = BotProcess(
                list(args),
                env=env,
                cwd=cwd,
                max_line_bytes=REFEREE_LINE_BYTES,
                stderr_bytes_per_turn=REFEREE_STDERR_BYTES,
                stderr_keeps_end=True,
            )
        except BotStartError as exc:
            raise RefereeFailure(f"the referee could not start: {exc}") from None

    def send(self, lines: Sequence[str]) -> None:
        """Send `lines`. A referee that has already ended is no failure yet (an SDK referee prints
        its last frames without reading the request for them): what it failed to say is."""
        try:
            self._proc.send(lines, self._wait())
        except BotExited:
            pass
        except BotTimeout:
            raise self.failure(self._late("did not read its input")) from None

    def read_line(self, what: str) -> str:
        """One line from the referee, `what` naming it for the message if it does not come. A
        referee that has exited is seen within `EXIT_POLL_S` even while a process it started keeps
        its output open."""
        ends = time.perf_counter() + self._wait()
        while True:
            try:
                return self._proc.read_line(min(EXIT_POLL_S, max(ends - time.perf_counter(), 0.0)))
            except TooLong:
                raise self.failure(
                    f"the referee printed a line of {REFEREE_LINE_BYTES:,} bytes or more (in {what})"
                ) from None
            except BotTimeout:
                if time.perf_counter() >= ends:
                    raise self.failure(self._late(f"did not send {what}")) from None
                code = self._proc.exit_code()
                if code is not None:
                    try:  # what it printed before it went, if a line of it is still unread
                        return self._proc.read_line(0.0)
                    except BotError:
                        raise self.failure(f"the referee ended ({ended(code)}) where {what} was due") from None
            except BotExited as exc:
                raise self.failure(f"the referee ended ({exc}) where {what} was due") from None

    def _wait(self) -> float:
        return max(min(self.reply_s, self._deadline - time.perf_counter()), 0.0)

    def _late(self, what: str) -> str:
        if time.perf_counter() >= self._deadline:
            return f"the game ran past its limit of {self.game_s:g} s (the referee {what} in time)"
        return f"the referee {what} within {self.reply_s:g} s"

    def finish(self) -> None:
        """After the results: close the referee's input and give it `END_GRACE_S` to exit by itself;
        a non-zero exit is a failure (one still running then is only killed)."""
        self._proc.close_input()
        ends = time.perf_counter() + END_GRACE_S
        while self._proc.running() and time.perf_counter() < ends:
            time.sleep(0.01)
        code = self._proc.exit_code()
        if code:
            raise self.failure(f"the referee exited with code {code} after giving its results")

    def failure(self, message: str, detail: str = "") -> RefereeFailure:
        """A `RefereeFailure` saying `message` (one line), with `detail` (what the referee said of
        its own failure) and the end of its stderr. Closes the referee: what it wrote is all read."""
        for _ in range(50):  # a referee that is dying gets half a second to say why on stderr
            if not self._proc.running():
                break
            time.sleep(0.01)
        self.close()
        stderr = self._proc.take_stderr().strip()
        text = "\n\n".join(part for part in (detail.strip(), stderr) if part)
        line = message.splitlines()[0] if message else "the referee failed"
        gist = stderr_gist(stderr)
        return RefereeFailure(f"{line} ({gist})" if gist else line, text)

    def stderr(self) -> str:
        return self._proc.take_stderr()

    def close(self) -> None:
        self._proc.close()


class Seats:
    """The bots' processes, one a seat, on our clock. A seat's first failure (`BOT_ERRORS`) is kept
    with a line for people; its times (ms, per answered turn) and stderr (per turn it was asked to
    answer, bounded) are kept for the outcome."""

    def __init__(self, players: list[Player], bot_seeds: list[int] | None = None):
        self.count = len(players)
        bot_seeds = bot_seeds or [None] * self.count
        self.procs: list[BotProcess | None] = []
        self.errors: list[str | None] = [None] * self.count
        self.details: list[str] = [""] * self.count
        self.times_ms: list[list[float]] = [[] for _ in players]
        self.stderr: list[list[str]] = [[] for _ in players]
        self.answered = [0] * self.count  # turns each seat answered
        self.missed = [0] * self.count  # answers each seat did not give in time
        self.first_inputs: list[list[str] | None] = [None] * self.count
        # What the referee sent before any bot answered: it cannot depend on the bots, only on the
        # seed (and the seats), so a repeat of the seed must send it again (`Outcome.fingerprint`).
        self._before_any_answer: list[tuple[int, list[str]]] = []
        self._any_answer = False
        # When each seat's input was sent: (perf_counter, our wait for a processor, the bot's time run
        # and waited for one).
        self._sent_at: list[tuple[tuple[float, float], tuple[float, float]] | None] = [None] * self.count
        self.late = [""] * self.count  # a seat's latest timeout, where the machine's (`lateness.late_by_machine`)
        for seat, player in enumerate(players):
            try:
                self.procs.append(
                    BotProcess(
                        player.target,
                        cwd=player.cwd,
                        stderr_bytes_per_turn=STDERR_BYTES_PER_TURN,
                        seed=bot_seeds[seat],
                    )
                )
            except BotStartError as exc:
                self.procs.append(None)
                self._fail(seat, "start", f"player {seat} ({player.label}) could not start: {exc}")

    def _fail(self, seat: int, error: str, detail: str) -> None:
        if self.errors[seat] is None:
            self.errors[seat] = error
            self.details[seat] = detail

    def send(self, seat: int, lines: list[str], timeout: float) -> None:
        """Give `seat` its input now: its clock starts. A bot that cannot take it fails when its
        answer is due (as on CodinGame, where the write fails silently and the answer never comes)."""
        if self.first_inputs[seat] is None:
            self.first_inputs[seat] = list(lines)
        if not self._any_answer:
            self._before_any_answer.append((seat, list(lines)))
        proc = self.procs[seat]
        bot_times = proc.cpu_times() if proc else (0.0, 0.0)  # read before the clock starts: not the bot's time
        self._sent_at[seat] = (turn_clock(), bot_times)
        if proc is None or not lines:
            return
        try:
            proc.send(lines, timeout)
        except BotError:
            pass

    def answer(self, seat: int, count: int, limit_s: float) -> tuple[list[str] | None, float]:
        """`seat`'s answer of `count` lines, due `limit_s` after its input was sent, and its time in
        ms; None for the lines where it timed out, crashed or could not start (its error is kept)."""
        self._any_answer = True
        proc = self.procs[seat]
        start, (bot_ran, bot_waited) = self._sent_at[seat] or (turn_clock(), (0, 0))
        started = start[0]
        self._sent_at[seat] = None
        turn = self.answered[seat] + 1
        if proc is None:
            return None, 0.0
        lines: list[str] = []
        size = 0
        try:
            while len(lines) < count:
                line = proc.read_line(started + limit_s - time.perf_counter())
                size += len(line.encode()) + 1
                if size > MAX_ANSWER_BYTES:  # CodinGame reads an answer's lines into one such buffer
                    raise TooLong(
                        f"printed more than {MAX_ANSWER_BYTES:,} bytes in its {count} lines, {WHERE_CODINGAME_STOPS}"
                    )
                lines.append(line)
        except BotExited as exc:
            proc.close()  # it is gone: closing drains what it wrote on stderr before it died
            self.procs[seat] = None  # asked again, it fails at once
            said_now = proc.take_stderr()
            self.stderr[seat].append(said_now)
            # why, as `exited with code 1` does not say; only where it wrote on this turn (a log line
            # of an earlier turn is no reason)
            said = proc.last_stderr_line()[:CRASH_WORDS] if said_now.strip() else ""
            why = f"{exc}: {said}" if said else str(exc)
            self._fail(seat, "crash", f"player {seat} crashed on its turn {turn}: {why}")
            return None, 0.0
        except BotTimeout as exc:
            self.stderr[seat].append(proc.take_stderr())
            self.missed[seat] += 1
            ran, machine = (now - before for now, before in zip(proc.cpu_times(), (bot_ran, bot_waited), strict=True))
            late = not isinstance(exc, TooLong) and late_by_machine(ran, machine, limit_s, proc)
            waiting = f"{machine * 1000:.0f} ms of its {limit_s * 1000:g} ms"
            self.late[seat] = f"player {seat} timed out waiting {waiting} for a processor" if late else ""
            if self.errors[seat] == "timeout":  # a referee may ask past a timeout: the latest is the one said
                self.errors[seat] = None
            clock = "" if isinstance(exc, TooLong) else f" ({limit_s * 1000:g} ms)"  # (no clock ran out)
            self._fail(seat, "timeout", f"player {seat} timed out on its turn {turn}: {exc}{clock}")
            return None, 0.0
        ms = turn_seconds(start) * 1000
        self.answered[seat] = turn
        self.times_ms[seat].append(round(ms, 3))
        self.stderr[seat].append(proc.take_stderr())
        return lines, ms

    def fingerprint(self) -> str | None:
        """A digest of what the referee sent before any bot answered (None if it sent nothing)."""
        if not self._before_any_answer:
            return None
        return hashlib.sha256(json.dumps(self._before_any_answer).encode()).hexdigest()[:32]

    def close(self) -> None:
        for proc in self.procs:
            if proc is not None:
                proc.close()

    def kept_first_inputs(self) -> list[str | None]:
        return [None if lines is None else "\n".join(lines)[:FIRST_INPUT_CHARS] for lines in self.first_inputs]


def outcome(
    referee: Referee,
    seats: Seats,
    errors: list[str | None],
    details: list[str],
    *,
    scores: list[float | None],
    turns: int,
    data: dict,
    ranked_by: list[float | None] | None = None,
) -> Outcome:
    """A game's outcome (`Outcome.ranked`), the first failed seat's detail its own, with what the
    seats kept (times, stderr, first inputs, the seed's fingerprint) and the end of the referee's
    stderr, which is closed first so that what it wrote is all read."""
    detail = next((detail for error, detail in zip(errors, details, strict=True) if error is not None), "")
    referee.close()
    return Outcome.ranked(
        scores,
        errors,
        detail,
        ranked_by,
        turns=turns,
        times_ms=seats.times_ms,
        stderr=seats.stderr,
        fingerprint=seats.fingerprint(),
        data={**data, "first_inputs": seats.kept_first_inputs()},
        referee_stderr=referee.stderr(),
        late=next(
            (seats.late[seat] for seat, error in enumerate(errors) if error == "timeout" and seats.late[seat]), ""
        ),
    )


JAVA_PROGRAMS = ("java", "java.exe")


def java_command(
    command: str | Sequence[str], main: Sequence[str], java_options: Sequence[str], properties: Sequence[str]
) -> tuple[list[str], dict[str, str]]:
    """The referee's argument list and environment, JVM options and system properties (`-Dkey=value`)
    placed where Java reads them: a lone `.jar` path runs as `java OPTIONS PROPERTIES MAIN...` (MAIN
    naming the jar, e.g. `-cp JAR CLASS` or `-jar JAR`); a `java ...` command gets them right after
    `java`; any other command (a wrapper script) gets them in JAVA_TOOL_OPTIONS, which every JVM it
    starts reads."""
    args = split_command(command)
    env = dict(os.environ)
    extra = [*java_options, *properties]
    if len(args) == 1 and args[0].endswith(".jar"):
        return ["java", *extra, *(part.replace("{jar}", args[0]) for part in main)], env
    if os.path.basename(args[0]) in JAVA_PROGRAMS:
        return [args[0], *extra, *args[1:]], env
    if extra:
        env["JAVA_TOOL_OPTIONS"] = " ".join(filter(None, [env.get("JAVA_TOOL_OPTIONS", ""), shlex.join(extra)]))
    return args, env


def bounded(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + f"... [{len(text) - limit:,} more characters]"


def garbage(line: str) -> str:
    return shorten(line, 80)
