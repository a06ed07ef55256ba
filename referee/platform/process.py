"""One bot process: send it lines, read one line back before a deadline, keep its stderr, and kill
every process it started at the end.

Every wait has a timeout and every failure is a typed exception whose message a person can act on.
Reading follows CodinGame's runner: an answer must end its line within 10,000 bytes (else it is a
timeout), '\\r', '\\n' and '\\r\\n' all end a line, lines are not trimmed, and bytes after the line
stay for the next turn.

"Every process it started" includes those that left its process group or session (`setsid`),
were orphaned, emptied their environment or fork without end: a `ProcessTree` owns them all, in a
cgroup of the bot's own where the machine allows it, else by a token and this process's adoption
of orphans (`process_tree`, where `python -m referee.platform.process_tree` says which one this
machine gives). No close waits on a pipe without a bound: an orphan may keep the bot's pipes open.
And a process killed before it could close its bots (SIGKILL, the OOM killer) leaves them to its
watcher, a process that outlives it to end them (`process_tree.tell_watcher`).
"""

from __future__ import annotations

import os
import selectors
import shlex
import subprocess
import time
from collections.abc import Iterable, Sequence

from .bot_commands import program_language, split_command, start_failure, unquoted_path
from .bot_env import SEED_VARIABLE
from .bot_errors import WHERE_CODINGAME_STOPS, BotExited, BotStartError, BotTimeout, TooLong, signal_name
from .clock import turn_clock, turn_seconds
from .lateness import cpu_times_of, waits_on_a_pipe
from .limits import MAX_ANSWER_BYTES, STDERR_BYTES_PER_TURN
from .process_tree import ProcessTree, track
from .stderr_sink import StderrSink

OVERTIME_LOOK_S = 0.01  # how often `answers_within` looks at what the bot ran, waiting for its line

# What a bot that timed out waiting for input, having never written a byte, is told: a program whose
# output is a pipe, not a terminal, may hold its lines in a buffer until it is flushed (C's printf,
# C++'s "\n", Python's print, Go's bufio.Writer, Rust's BufWriter, Java's PrintWriter); or the bot
# reads more than it was sent. How to flush is said in the bot's language, where its program says it.
UNFLUSHED = (
    "it waits for input and wrote nothing: an answer printed but not flushed is still in its buffer "
    "(flush after each answer: {how}), or it reads more lines than it was sent"
)
READS_TOO_MUCH = "it waits for input and wrote nothing: it reads more lines than it was sent"
# How each language's bot flushes an answer (keys: `program_language`'s); None: its lines leave as written.
FLUSH = {
    "c": "fflush(stdout) in C, std::endl in C++",
    "python": "print(..., flush=True)",
    "java": "flush() of its PrintWriter or BufferedWriter",
    "csharp": "Console.Out.Flush(), or Flush() of its StreamWriter",
    "go": "w.Flush() of its bufio.Writer",
    "rust": "flush() of its BufWriter, or io::stdout().flush() after print!",
    "ruby": "STDOUT.sync = true",
    "perl": "$| = 1",
    "lua": "io.stdout:flush()",
    **dict.fromkeys(("javascript", "php")),
}
# For a program whose language is not known: the common languages' ways.
FLUSH_ANY = (
    "fflush(stdout), std::endl, or `stdbuf -oL` before a C or C++ program; print(..., flush=True) in "
    "Python; flush() of Java's PrintWriter, of Rust's BufWriter; w.Flush() of Go's bufio.Writer; "
    "Console.Out.Flush() in C#"
)


def unflushed(args: Sequence[str], cwd: str | None = None) -> str:
    """What a bot (command `args`, run from `cwd`) that never wrote a byte and waits for input is told."""
    language = program_language(args, cwd)
    if language in FLUSH and FLUSH[language] is None:
        return READS_TOO_MUCH
    return UNFLUSHED.format(how=FLUSH.get(language) or FLUSH_ANY)


class BotProcess:
    """A running bot. Use as a context manager so that every process it started is killed."""

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        stderr_bytes_per_turn: int = STDERR_BYTES_PER_TURN,
        seed: int | None = None,
        max_line_bytes: int = MAX_ANSWER_BYTES,
        stderr_keeps_end: bool = False,
        line_ends_at_exit: bool = False,
    ):
        """`max_line_bytes` and `stderr_keeps_end` are for a process that is no bot: an external
        referee, whose lines (a replay's frame) run to megabytes and whose stderr matters most at its
        end (the exception it died of); `take_stderr` then gives the last `stderr_bytes_per_turn`.
        `line_ends_at_exit`: for a puzzle's solver, whose last line may end where its output does (a
        solver that writes its answer without a newline and exits), as CodinGame's puzzles take it;
        a game's bot lives on, and its line without an end is no answer."""
        self.args = split_command(command)
        self._cwd = cwd
        self._max_line_bytes = max_line_bytes
        self._line_ends_at_exit = line_ends_at_exit
        if seed is not None:  # the bot's seed for this game, for a bot that takes it (referee/platform/bot_env.py)
            env = dict(os.environ if env is None else env, **{SEED_VARIABLE: str(seed)})
        self.tree = ProcessTree()  # `tree.mechanism` says how its end reaches every process
        try:
            self._proc = self.tree.start(
                self.args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd, env=env
            )
        except OSError as exc:
            self.tree.end(None)
            why = f"{start_failure(exc, cwd)}{unquoted_path(self.args, cwd)}"
            raise BotStartError(
                f"cannot start {self.args[0]!r} (the program of {shlex.join(self.args)}): {why}"
            ) from exc
        self._closed = False
        track(self)
        self._stdin_fd = self._proc.stdin.fileno()
        self._stdout_fd = self._proc.stdout.fileno()
        os.set_blocking(self._stdin_fd, False)
        os.set_blocking(self._stdout_fd, False)
        self._pending = bytearray()  # bytes read past the last answer
        self._after_cr = False  # a '\n' right after a '\r' ends nothing
        self._stdout_closed = False
        self._wrote = False  # anything at all on its stdout so far
        self._stderr = StderrSink(self._proc.stderr.fileno(), stderr_bytes_per_turn, stderr_keeps_end)
        self._stderr.start()

    @property
    def pid(self) -> int:
        return self._proc.pid

    def ask(self, lines: Iterable[str], timeout: float) -> tuple[str, float]:
        """Send `lines`, then read one answer line; both within `timeout` seconds.

        Returns the line (without its end) and the seconds taken, measured from the start of sending,
        less the time this thread meanwhile waited for a processor (`clock`). Raises BotTimeout or
        BotExited. A bot that answers without reading its input and exits (a solver that prints a
        known answer) has answered: the line it wrote is read though the input found no reader.
        """
        bot_ran, bot_waited = self.cpu_times()  # read before the clock starts: the bot's time is not ours
        start = turn_clock()
        deadline = start[0] + timeout
        try:
            try:
                self.send(lines, timeout)
            except BotExited:  # it ended without reading: an answer it wrote first is still its answer
                pass
            line = self._read_line(deadline)  # (BotExited at the end of its output)
        except BotTimeout as exc:
            ran_now, waited_now = self.cpu_times()
            exc.ran, exc.waited = max(ran_now - bot_ran, 0.0), max(waited_now - bot_waited, 0.0)
            raise
        # What this process spent waiting for a processor (mostly after the answer came, before it
        # could read it) is not the bot's time.
        return line, turn_seconds(start)

    def send(self, lines: Iterable[str], timeout: float) -> None:
        """Send `lines` (each ended by '\\n') within `timeout` seconds, without waiting for an answer;
        raises BotTimeout (it does not read its input) or BotExited."""
        self._send("".join(line + "\n" for line in lines).encode(), time.perf_counter() + timeout)

    def read_line(self, timeout: float) -> str:
        """Read one more line (for answers of several lines); raises BotTimeout or BotExited."""
        return self._read_line(time.perf_counter() + timeout)

    def close_input(self) -> None:
        """Close the bot's stdin (for solvers that read until end of input)."""
        try:
            self._proc.stdin.close()
        except OSError:
            pass

    def running(self) -> bool:
        """Whether the bot's process has not exited."""
        return self._proc.poll() is None

    def exit_code(self, wait: float = 0.0) -> int | None:
        """The bot's exit status (negative: the signal that ended it), or None while it runs (after
        `wait` seconds at most: a process that closed its output is most often exiting)."""
        try:
            return self._proc.wait(timeout=wait) if wait > 0 else self._proc.poll()
        except subprocess.TimeoutExpired:
            return None

    def cpu_times(self) -> tuple[float, float]:
        """(seconds run on a processor, seconds waited for one) of the bot since it started: all its
        processes where it runs in a cgroup, else its own threads ((0, 0) where the system does not say)."""
        return self.tree.cpu_times() or cpu_times_of(self._proc.pid) or (0.0, 0.0)

    def take_stderr(self) -> str:
        """What the bot wrote on stderr since the last call (bounded)."""
        return self._stderr.take()

    def last_stderr_line(self) -> str:
        """The last line the bot wrote on stderr that is not blank ("" if none): after it exited,
        most often why (an exception's message)."""
        return self._stderr.last_line()

    def _send(self, data: bytes, deadline: float) -> None:
        view = memoryview(data)
        with selectors.DefaultSelector() as sel:
            sel.register(self._stdin_fd, selectors.EVENT_WRITE)
            while view:
                left = deadline - time.perf_counter()
                if left <= 0:
                    raise BotTimeout("did not read its input in time")
                if not sel.select(left):
                    continue
                try:
                    view = view[os.write(self._stdin_fd, view) :]
                except BlockingIOError:
                    continue
                except (BrokenPipeError, ConnectionResetError):
                    raise BotExited(self._exit_message()) from None

    def _take_line_from_pending(self) -> str | None:
        buf = self._pending
        if self._after_cr and buf[:1] == b"\n":
            del buf[:1]
        self._after_cr = False
        limit = self._max_line_bytes
        ends = [i for i in (buf.find(b"\n", 0, limit), buf.find(b"\r", 0, limit)) if i >= 0]
        if ends:
            i = min(ends)
            line = bytes(buf[:i])
            self._after_cr = buf[i] == 13
            del buf[: i + 1]
            return line.decode("utf-8", "replace")
        if len(buf) >= limit:
            # CodinGame stops reading at 10,000 bytes and, the line being incomplete, times the
            # player out; the rest would wait in the pipe.
            del buf[:limit]
            raise TooLong(f"printed a line of {limit:,} bytes or more, {WHERE_CODINGAME_STOPS}")
        return None

    def answers_within(self, cpu_seconds: float, wall_seconds: float) -> bool:
        """After a timeout: whether the bot ends a line before it has run `cpu_seconds` more on a
        processor; True also where `wall_seconds` pass first (a machine too busy to tell, or one that
        does not say what a process ran). A bot starved of a
        processor that answers once it has had its turn's processor time was late by the machine's
        fault; one that runs on without an answer (an endless loop), or exits, by its own. The line,
        if any, is taken: the turn it answers is over."""
        ran_before = self.cpu_times()[0]
        end = time.perf_counter() + wall_seconds
        while (now := time.perf_counter()) < end:
            try:
                if self._line_by(min(end, now + OVERTIME_LOOK_S)) is not None:
                    return True
            except BotExited:
                return False
            if self.cpu_times()[0] - ran_before >= cpu_seconds:
                return False
        return True

    def _read_line(self, deadline: float) -> str:
        line = self._line_by(deadline)
        if line is None:
            raise BotTimeout(self._no_answer())
        return line

    def _line_by(self, deadline: float) -> str | None:
        """The next line, read by `deadline` (None if none is ended by then); BotExited at the end of
        the bot's output."""
        with selectors.DefaultSelector() as sel:
            sel.register(self._stdout_fd, selectors.EVENT_READ)
            while True:
                line = self._take_line_from_pending()
                if line is not None:
                    return line
                if self._stdout_closed:
                    if self._line_ends_at_exit and self._pending:
                        line = bytes(self._pending).decode("utf-8", "replace")
                        self._pending.clear()
                        return line
                    raise BotExited(self._exit_message())
                left = deadline - time.perf_counter()
                if left <= 0:
                    return None
                if not sel.select(left):
                    continue
                try:
                    chunk = os.read(self._stdout_fd, 65536)
                except BlockingIOError:
                    continue
                if chunk:
                    self._pending += chunk
                    self._wrote = True
                else:
                    self._stdout_closed = True

    def _no_answer(self) -> str:
        """A timeout's words, with the start of a line the bot wrote and did not end, if any (an
        answer printed without its newline is no answer, here as on CodinGame); for a bot that never
        wrote a byte and waits for input, the likeliest cause: an answer left in its output buffer."""
        if not self._pending:
            if not self._wrote and waits_on_a_pipe(self._proc.pid):
                return f"no answer in time: {unflushed(self.args, self._cwd)}"
            return "no answer in time"
        shown = bytes(self._pending[:40]).decode("utf-8", "replace") + ("..." if len(self._pending) > 40 else "")
        return f"no answer in time: it wrote {shown!r} without ending the line"

    def _exit_message(self) -> str:
        try:
            code = self._proc.wait(timeout=0.2)
        except subprocess.TimeoutExpired:
            return "closed its output"
        if code < 0:
            return f"killed by signal {signal_name(-code)}"
        return f"exited with code {code}"

    def close(self) -> None:
        """Kill every process the bot started and reap the bot; safe to call twice. Bounded in time
        even when a process out of reach (another user's) holds the pipes."""
        if self._closed:
            return
        self._closed = True
        self.tree.end(self._proc)
        try:
            self._proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - a process in uninterruptible sleep
            pass
        self.tree.forget()
        for stream in (self._proc.stdin, self._proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        self._stderr.stop(timeout=1.0)
        try:
            self._proc.stderr.close()
        except OSError:
            pass

    def __enter__(self) -> BotProcess:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
