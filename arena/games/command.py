"""What the games whose external referee runs the bots itself have in common (protocols A and B,
`cli.py` and `json_game.py`): their games' whole-game limit and skeleton (`CommandGame`); the
referee run as a process to its end within a whole-game limit, every process it started killed
afterwards, the bots included; and a seat's command as the referee gets it.

Told apart by exit status and output, never by stderr: a referee that cannot start, outlives the
limit, exits non-zero or prints more than a result's worth is a `RefereeFailure`, whose message
quotes the last line of its stderr; its stderr's end is kept in any case (real referees print a
bot's mistake there as an exception, in a game that counts).
"""

from __future__ import annotations

import os
import selectors
import shlex
import signal
import subprocess
import tempfile
import time
from abc import abstractmethod
from dataclasses import KW_ONLY, dataclass
from pathlib import Path

from referee.platform.bot_env import SEED_VARIABLE
from referee.platform.bot_errors import BotError, signal_name
from referee.platform.process import BotProcess
from referee.platform.process_tree import descendants, process_table, signal_each

from arena.errors import UsageError
from arena.games.base import Outcome, Player, RefereeFailure, Seconds, stderr_gist
from arena.games.external import ExternalGame

# The error recorded for a player the referee says failed, where it does not say how (a negative
# score without a reason, psyleague's `errors: 1`): CodinGame's word for a player deactivated over
# its output, the commonest case.
UNTOLD_ERROR = "invalid"
GAME_SECONDS = 300.0  # the default whole-game limit: a hung referee is killed, with its bots, after it
STDOUT_LIMIT = 1 << 20  # a result is a few lines: a referee printing more is broken
STDERR_KEPT = 16_384  # the end of the referee's stderr that is kept
STDERR_CHUNK = 1 << 20  # what the stderr reader holds between two takes
EXIT_GRACE = 1.0  # seconds a leftover may hold the referee's stdout open after the referee exited
POLL = 0.05  # seconds between looks at the referee's exit and stderr while waiting


@dataclass
class CommandGame(ExternalGame):
    """A game whose external referee runs the bots itself, given their commands: its whole-game limit,
    and a game's commands for the seats, handed to `_play`, the protocol's own."""

    _: KW_ONLY
    timeout_s: Seconds = GAME_SECONDS  # for the whole game

    timed_by_referee = True

    def play(self, seed: int, players: list[Player], bot_seeds: list[int]) -> Outcome:
        """One game; each bot's seed reaches it in its environment, through its command line (the
        referee starts the bots)."""
        if len(players) != self.seats:
            raise ValueError(f"{self.name} is a {self.seats}-player game, not {len(players)}")
        with tempfile.TemporaryDirectory(prefix="caldera-seats-") as folder:
            commands = [
                split_on_spaces(seat_command(player, bot_seed), Path(folder) / f"seat-{seat}")
                for seat, (player, bot_seed) in enumerate(zip(players, bot_seeds, strict=True))
            ]
            return self._play(seed, commands)

    @abstractmethod
    def _play(self, seed: int, commands: list[str]) -> Outcome:
        """One game between the seats' `commands`, the protocol's own way."""


@dataclass
class Finished:
    """How a referee's run ended."""

    stdout: str
    status: int | None  # exit status, negative for a signal; None: still running at the limit
    stderr: str  # the end of it
    seconds: float
    overflow: bool = False  # it printed more than STDOUT_LIMIT on stdout

    def failure(self, message: str) -> RefereeFailure:
        """A RefereeFailure: `message` and the gist of the referee's stderr, if any."""
        gist = stderr_gist(self.stderr)
        return RefereeFailure(f"{message} ({gist})" if gist else message, self.stderr)

    def check_exit(self, limit_s: float) -> None:
        """RefereeFailure unless the referee ended on its own, with status 0, within bounds."""
        if self.overflow:
            raise self.failure(f"the referee printed more than {STDOUT_LIMIT:,} bytes on stdout (killed)")
        if self.status is None:
            raise self.failure(f"the referee gave no result within {limit_s:g} s (killed, with its bots)")
        if self.status < 0:
            raise self.failure(f"the referee was killed by signal {signal_name(-self.status)}")
        if self.status != 0:
            raise self.failure(f"the referee exited with status {self.status}")


def seat_command(player: Player, seed: int | None = None) -> str:
    """`player`'s command line as the referee gets it, through `env`: with its seed for the game
    (`referee.platform.bot_env`), run from its own folder where it has one (a pinned tree). Quoted as
    a shell quotes: see `split_on_spaces` for the referees that split it on spaces instead."""
    if player.kind == "bot":
        raise UsageError(f"{player.label} is an in-process bot: an external referee runs only commands")
    prefix = [] if seed is None else [f"{SEED_VARIABLE}={seed}"]
    if player.cwd is not None:
        prefix = ["-C", shlex.quote(player.cwd), *prefix]
    return " ".join(["env", *prefix, player.target]) if prefix else player.target


def split_on_spaces(command: str, wrapper: Path) -> str:
    """`command` as a referee that splits it on spaces gets it whole: itself where that splitting
    gives the words a shell's would, else the path of a script at `wrapper` that runs those words
    (a referee built on CodinGame's SDK splits a player's command on spaces and quotes nothing, so a
    working folder or a file whose path holds a space broke every game)."""
    words = shlex.split(command)
    if command.split() == words:
        return command
    if any(char.isspace() for char in str(wrapper)):
        raise RefereeFailure(f"no folder without a space for the players' commands: {wrapper.parent}")
    wrapper.write_text(f"#!/bin/sh\nexec {shlex.join(words)}\n", encoding="utf-8")
    wrapper.chmod(0o700)
    return str(wrapper)


def run_referee(args: list[str], limit_s: float, cwd: str | None = None) -> Finished:
    """Run the referee to its end (or `limit_s` seconds); every process it started is gone when this
    returns. RefereeFailure if it cannot start."""
    try:
        referee = RefereeProcess(args, cwd=cwd)
    except BotError as exc:
        raise RefereeFailure(f"the referee cannot start: {exc}") from None
    with referee:
        finished = referee.run(limit_s)
    finished.stderr = referee.stderr_tail()
    return finished


class RefereeProcess(BotProcess):
    """A referee started as a bot is (its own session, a token in its environment that whatever it
    starts inherits), read to its end at once: all of its stdout, the end of its stderr, its exit
    status. Closing it kills every process it started, also the bots it started under tokens and in
    sessions of their own (as ours do, with BotProcess): see `_stop_and_kill_tree`."""

    def __init__(self, args: list[str], cwd: str | None = None):
        super().__init__(args, cwd=cwd, stderr_bytes_per_turn=STDERR_CHUNK)
        self.close_input()  # a referee of these protocols reads nothing from its caller
        self._stderr_tail = ""

    def run(self, limit_s: float) -> Finished:
        """Read stdout until the referee exits and closes it, it prints too much, or `limit_s`."""
        started = time.monotonic()
        deadline = started + limit_s
        out = bytearray()
        closed = overflow = False
        exited_at = None
        with selectors.DefaultSelector() as selector:
            selector.register(self._stdout_fd, selectors.EVENT_READ)
            while True:
                self._keep_stderr()
                now = time.monotonic()
                if exited_at is None and self._proc.poll() is not None:
                    exited_at = now
                if closed and exited_at is not None:
                    break
                if now >= deadline or (exited_at is not None and now - exited_at > EXIT_GRACE):
                    break
                if closed:  # wait for the exit, which follows at once
                    try:
                        self._proc.wait(min(POLL, deadline - now))
                    except subprocess.TimeoutExpired:
                        pass
                    continue
                if not selector.select(min(POLL, deadline - now)):
                    continue
                try:
                    chunk = os.read(self._stdout_fd, 65536)
                except BlockingIOError:
                    continue
                if not chunk:
                    closed = True
                    selector.unregister(self._stdout_fd)
                    continue
                out += chunk
                if len(out) > STDOUT_LIMIT:
                    overflow = True
                    break
        status = None if overflow else self._proc.poll()
        return Finished(out.decode("utf-8", "replace"), status, "", time.monotonic() - started, overflow)

    def _keep_stderr(self) -> None:
        text = self.take_stderr()
        if text:
            self._stderr_tail = (self._stderr_tail + text)[-STDERR_KEPT:]

    def stderr_tail(self) -> str:
        """The end of what the referee wrote on stderr (all of it, once closed)."""
        self._keep_stderr()
        return self._stderr_tail

    def close(self) -> None:
        if not self._closed and self._proc.poll() is None:
            _stop_and_kill_tree(self._proc.pid)
        super().close()


def _stop_and_kill_tree(root: int, seconds: float = 3.0) -> None:
    """Stop `root` (a live child of ours) and every process descending from it, then kill them all.

    A bot that our own referees start has a token and a session of its own (BotProcess), so
    neither the referee's token nor its session reaches it, only its descent from the referee; and
    that is lost the moment the referee dies (its children go to init). Stopped first, no process
    of the tree can die, start another or be orphaned while the others are being found."""
    stopped: set[int] = set()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        table = process_table()
        tree = {root} | descendants(table, [root])
        fresh = [pid for pid in tree - stopped if table.get(pid, (0, 0, 0, "X", 0))[3] not in ("Z", "X")]
        if not fresh:
            break
        signal_each(fresh, signal.SIGSTOP)
        stopped.update(fresh)
    signal_each(stopped | {root}, signal.SIGKILL)
