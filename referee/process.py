"""One bot process: send it lines, read one line back before a deadline, keep its stderr, and kill
every process it started at the end.

Every wait has a timeout and every failure is a typed exception whose message a person can act on.
Reading follows CodinGame's runner: an answer must end its line within 10,000 bytes (else it is a
timeout), '\\r', '\\n' and '\\r\\n' all end a line, lines are not trimmed, and bytes after the line
stay for the next turn.

"Every process it started" includes those that left its process group or session (`setsid`) and
were orphaned: a process group reaches only the first. So each bot runs with a per-bot token in its
environment (inherited by whatever it starts), and closing kills, until none is left, every process
that holds the token, is in the bot's session, or descends from one of these; on Linux through /proc
(elsewhere only the process group is killed). A process that empties its environment, leaves the
session and is orphaned escapes that walk; `claim_orphans()` makes this process their subreaper, so
such orphans become its children and are killed too (for processes that run nothing but bots: the
referee command and the arena's workers). No close waits on a pipe without a bound: an orphan may
keep the bot's pipes open.
"""

from __future__ import annotations

import ctypes
import os
import secrets
import selectors
import shlex
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Iterable, Sequence
from pathlib import Path

from .bot_env import SEED_VARIABLE, TOKEN_VARIABLE
from .clock import waited_for_cpu

MAX_ANSWER_BYTES = 10_000  # CodinGame's Agent.AGENT_MAX_BUFFER_SIZE
STDERR_BYTES_PER_TURN = 4096  # what CodinGame shows of a turn's stderr
WARM_UP_SECONDS = 600  # for a bot's warm-up command: compiling numba kernels on a busy machine


class BotError(Exception):
    """A bot failed. `reason` is a short word for records (timeout, crash, ...)."""

    reason = "error"


class BotTimeout(BotError):
    reason = "timeout"


class BotExited(BotError):
    """The bot closed its output: it exited or crashed."""

    reason = "crash"


class BotStartError(BotError):
    reason = "start"


def split_command(command: str | Sequence[str]) -> list[str]:
    """A command line as an argument list (a string is split as a POSIX shell splits words)."""
    try:
        args = shlex.split(command) if isinstance(command, str) else list(command)
    except ValueError as exc:  # an unbalanced quote
        raise BotStartError(f"cannot split the command {command!r}: {exc}") from None
    if not args:
        raise BotStartError("empty command")
    return args


def warm_up_command(command: str | Sequence[str], cwd: str | None = None) -> list[str] | None:
    """The command that prepares bot `command` before its games, or None when it has none.

    The convention: a bot run as a module (`python -m PACKAGE.NAME`) whose package also has a
    `warmup` module is prepared by `python -m PACKAGE.warmup NAME` (for this project's bots it
    compiles their numba kernels into the cache, so no game's clock runs while they compile)."""
    args = split_command(command)
    if len(args) != 3 or args[1] != "-m" or "." not in args[2]:
        return None
    package, name = args[2].rsplit(".", 1)
    if not (Path(cwd or ".") / Path(*package.split(".")) / "warmup.py").is_file():
        return None
    return [args[0], "-m", f"{package}.warmup", name]


def warm_up(command: str | Sequence[str], cwd: str | None = None, log=sys.stderr, label: str | None = None) -> None:
    """Run `command`'s warm-up (see `warm_up_command`), if it has one, saying so on `log`;
    BotStartError when it fails."""
    prepare = warm_up_command(command, cwd)
    if prepare is None:
        return
    started = time.perf_counter()
    print(
        f"preparing {label or shlex.join(split_command(command))} ({shlex.join(prepare[2:])})...",
        end=" ",
        file=log,
        flush=True,
    )
    try:
        done = subprocess.run(prepare, cwd=cwd, capture_output=True, text=True, timeout=WARM_UP_SECONDS)
    except subprocess.TimeoutExpired:
        raise BotStartError(f"its warm-up took more than {WARM_UP_SECONDS} s") from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
        raise BotStartError(f"its warm-up {shlex.join(prepare)} failed: {last}")
    print(f"ready in {time.perf_counter() - started:.1f} s", file=log, flush=True)


class _StderrSink(threading.Thread):
    """Drains a bot's stderr so it never blocks on a full pipe; keeps a bounded part per turn.

    It reads the file descriptor itself, never blocking in a read: `stop()` ends it at once even
    while another process still holds the pipe open. `take()` first reads what the pipe holds
    already (under the lock the thread reads under): what a bot wrote on stderr before its answer
    is that turn's, even when the thread has not woken yet."""

    def __init__(self, fd: int, limit: int, keep_end: bool = False):
        super().__init__(daemon=True)
        self._fd = fd
        self._limit = limit
        self._keep_end = keep_end  # keep the last `limit` bytes (an exception's trace), not the first
        self._lock = threading.Lock()
        self._kept = bytearray()
        self._dropped = 0
        self._open = True  # until the end of the pipe, or stop(): the descriptor may be reused after
        self._wake_read, self._wake_write = os.pipe()
        os.set_blocking(fd, False)

    def run(self) -> None:
        try:
            with selectors.DefaultSelector() as sel:
                sel.register(self._fd, selectors.EVENT_READ)
                sel.register(self._wake_read, selectors.EVENT_READ)
                while True:
                    ready = {key.fd for key, _ in sel.select()}
                    if self._wake_read in ready:
                        return
                    with self._lock:
                        if not self._drain():
                            return
        except (OSError, ValueError):
            pass
        finally:
            with self._lock:
                self._open = False

    def _drain(self) -> bool:
        """Read (with the lock held) all the pipe holds now; False at its end."""
        while self._open:
            try:
                chunk = os.read(self._fd, 65536)
            except BlockingIOError:
                return True
            except OSError:
                chunk = b""
            if not chunk:
                self._open = False
                return False
            if self._keep_end:
                self._kept += chunk
                excess = max(len(self._kept) - self._limit, 0)
                del self._kept[:excess]
                self._dropped += excess
                continue
            room = max(self._limit - len(self._kept), 0)
            self._kept += chunk[:room]
            self._dropped += max(len(chunk) - room, 0)
        return False

    def stop(self, timeout: float) -> None:
        """Let it read what is already there (up to `timeout` seconds), then end it."""
        self.join(timeout)
        try:
            os.write(self._wake_write, b"x")
        except OSError:
            pass
        self.join(1.0)  # it wakes at once; bounded all the same
        with self._lock:
            self._open = False
        for fd in (self._wake_read, self._wake_write):
            try:
                os.close(fd)
            except OSError:
                pass

    def take(self) -> str:
        with self._lock:
            self._drain()
            text = self._kept.decode("utf-8", "replace")
            if self._dropped and self._keep_end:
                text = f"[{self._dropped} earlier bytes of stderr not kept]\n" + text
            elif self._dropped:
                text += f"\n[{self._dropped} more bytes of stderr not kept]"
            self._kept.clear()
            self._dropped = 0
        return text


# ---------------------------------------------------------------- every process a bot started

_PROC = Path("/proc")
_PR_SET_CHILD_SUBREAPER = 36  # linux/prctl.h
_claimed_orphans = False
_ANY_TOKEN = f"{TOKEN_VARIABLE}=".encode()
_live_bots: set[int] = set()  # pids of this process's bots (direct children) not yet closed
_open: weakref.WeakSet = weakref.WeakSet()  # this process's BotProcess objects not yet closed
_bots_lock = threading.Lock()  # a bot being started is never taken for a leftover of another


def claim_orphans() -> bool:
    """Make this process the subreaper of its descendants (Linux): an orphaned descendant becomes
    its child instead of init's, so closing a bot can find and kill (and reap) even one that left the
    bot's session and environment. Only for a process whose children are all bots: any child that
    is not a live bot's own process is then taken for a bot's leftover. True if it took effect."""
    global _claimed_orphans
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
            return False
    except (OSError, AttributeError):
        return False
    _claimed_orphans = True
    return True


def _processes() -> dict[int, tuple[int, int, str, int]]:
    """Every process visible now: pid -> (parent pid, session id, state letter, start time in clock
    ticks since boot). {} without /proc."""
    table = {}
    try:
        entries = list(_PROC.iterdir())
    except OSError:
        return table
    for entry in entries:
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_bytes()
        except OSError:
            continue
        fields = stat[stat.rindex(b")") + 2 :].split()
        table[int(entry.name)] = (int(fields[1]), int(fields[3]), fields[0].decode(), int(fields[19]))
    return table


def _holds_token(pid: int, marker: bytes) -> bool:
    try:
        return marker in (_PROC / str(pid) / "environ").read_bytes()
    except OSError:  # gone, or not ours to read (and then not ours to kill either)
        return False


def _start_time(pid: int) -> int:
    """When `pid` started, in clock ticks since boot (0 where unknown)."""
    try:
        stat = (_PROC / str(pid) / "stat").read_bytes()
        return int(stat[stat.rindex(b")") + 2 :].split()[19])
    except (OSError, ValueError, IndexError):
        return 0


def _leftovers(bot_pid: int | None, marker: bytes, since: int) -> tuple[list[int], list[int]]:
    """(live, dead) processes that the bot started: those holding its token, in its session, or
    descending from either; with `claim_orphans()`, also any child of ours that is no live bot."""
    table = _processes()
    me = os.getpid()
    found = set()
    for pid, (ppid, sid, _, started) in table.items():
        if pid in (me, bot_pid):
            continue
        # Only a process started since the bot can hold its token: the others' environments go unread.
        if (bot_pid is not None and sid == bot_pid) or (started >= since and _holds_token(pid, marker)):
            found.add(pid)
        elif _claimed_orphans and ppid == me and pid not in _live_bots and not _holds_token(pid, _ANY_TOKEN):
            found.add(pid)  # an orphan adopted by this process, and no other bot's
    children: dict[int, list[int]] = {}
    for pid, (ppid, *_) in table.items():
        children.setdefault(ppid, []).append(pid)
    stack = list(found) + ([bot_pid] if bot_pid is not None else [])
    while stack:  # their descendants, even those that dropped the token
        for child in children.get(stack.pop(), ()):
            if child not in found and child != me:
                found.add(child)
                stack.append(child)
    live = [pid for pid in found if table.get(pid, (0, 0, "Z", 0))[2] not in ("Z", "X")]
    dead = [pid for pid in found if pid not in live]
    return live, dead


def _kill_leftovers(bot_pid: int | None, marker: bytes, since: int, seconds: float = 3.0) -> None:
    """Kill (and, being their subreaper, reap) the bot's leftovers until none is left, or `seconds`.
    `bot_pid` is None once the bot was reaped: its number may be another process's by now."""
    deadline = time.monotonic() + seconds
    while True:
        with _bots_lock:
            live, dead = _leftovers(bot_pid, marker, since)
        for pid in live:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        for pid in dead:
            try:
                os.waitpid(pid, os.WNOHANG)  # only our children: others are not ours to reap
            except (ChildProcessError, OSError):
                pass
        if not live or time.monotonic() > deadline:
            return
        time.sleep(0.01)  # let the killed go, and any fork they raced with show up


def close_all() -> None:
    """Close every bot process of this process still open (a worker about to exit mid-game)."""
    for bot in list(_open):
        try:
            bot.close()
        except Exception:  # noqa: BLE001 - exiting anyway: the next one still gets closed
            pass


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
    ):
        """`max_line_bytes` and `stderr_keeps_end` are for a process that is no bot: an external
        referee, whose lines (a replay's frame) run to megabytes and whose stderr matters most at its
        end (the exception it died of); `take_stderr` then gives the last `stderr_bytes_per_turn`."""
        self.args = split_command(command)
        self._max_line_bytes = max_line_bytes
        self._token = secrets.token_hex(16)
        env = dict(os.environ if env is None else env)
        env[TOKEN_VARIABLE] = self._token
        if seed is not None:  # the bot's seed for this game, for a bot that takes it (referee/bot_env.py)
            env[SEED_VARIABLE] = str(seed)
        try:
            with _bots_lock:
                self._proc = subprocess.Popen(
                    self.args,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    cwd=cwd,
                    env=env,
                    start_new_session=True,  # its own session and process group: see close()
                )
                _live_bots.add(self._proc.pid)
            self._started = _start_time(self._proc.pid)
        except OSError as exc:
            raise BotStartError(f"cannot start {shlex.join(self.args)!r}: {exc.strerror or exc}") from exc
        self._closed = False
        _open.add(self)
        self._stdin_fd = self._proc.stdin.fileno()
        self._stdout_fd = self._proc.stdout.fileno()
        os.set_blocking(self._stdin_fd, False)
        os.set_blocking(self._stdout_fd, False)
        self._pending = bytearray()  # bytes read past the last answer
        self._after_cr = False  # a '\n' right after a '\r' ends nothing
        self._stdout_closed = False
        self._stderr = _StderrSink(self._proc.stderr.fileno(), stderr_bytes_per_turn, stderr_keeps_end)
        self._stderr.start()

    @property
    def pid(self) -> int:
        return self._proc.pid

    def ask(self, lines: Iterable[str], timeout: float) -> tuple[str, float]:
        """Send `lines`, then read one answer line; both within `timeout` seconds.

        Returns the line (without its end) and the seconds taken, measured from the start of sending,
        less the time this thread meanwhile waited for a processor (`clock`). Raises BotTimeout or
        BotExited.
        """
        start = time.perf_counter()
        waited = waited_for_cpu()
        deadline = start + timeout
        self.send(lines, timeout)
        line = self._read_line(deadline)
        # What this process spent waiting for a processor (mostly after the answer came, before it
        # could read it) is not the bot's time.
        return line, time.perf_counter() - start - (waited_for_cpu() - waited)

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

    def exit_code(self) -> int | None:
        """The bot's exit status (negative: the signal that ended it), or None while it runs."""
        return self._proc.poll()

    def take_stderr(self) -> str:
        """What the bot wrote on stderr since the last call (bounded)."""
        return self._stderr.take()

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
            raise BotTimeout(f"printed {limit:,} bytes without ending its line")
        return None

    def _read_line(self, deadline: float) -> str:
        with selectors.DefaultSelector() as sel:
            sel.register(self._stdout_fd, selectors.EVENT_READ)
            while True:
                line = self._take_line_from_pending()
                if line is not None:
                    return line
                if self._stdout_closed:
                    raise BotExited(self._exit_message())
                left = deadline - time.perf_counter()
                if left <= 0:
                    raise BotTimeout("no answer in time")
                if not sel.select(left):
                    continue
                try:
                    chunk = os.read(self._stdout_fd, 65536)
                except BlockingIOError:
                    continue
                if chunk:
                    self._pending += chunk
                else:
                    self._stdout_closed = True

    def _exit_message(self) -> str:
        try:
            code = self._proc.wait(timeout=0.2)
        except subprocess.TimeoutExpired:
            return "closed its output"
        if code < 0:
            return f"killed by signal {signal.Signals(-code).name}"
        return f"exited with code {code}"

    def close(self) -> None:
        """Kill every process the bot started and reap the bot; safe to call twice. Bounded in time
        even when a process out of reach (another user's) holds the pipes."""
        if self._closed:
            return
        self._closed = True
        pid = self._proc.pid
        reaped = self._proc.returncode is not None  # then `pid` may be another process's by now
        if not reaped:
            try:
                os.killpg(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        # Before the bot is reaped, its pid (and so its session's id) cannot be reused.
        _kill_leftovers(None if reaped else pid, f"{TOKEN_VARIABLE}={self._token}\0".encode(), self._started)
        try:
            self._proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - a process in uninterruptible sleep
            pass
        with _bots_lock:
            _live_bots.discard(pid)
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
