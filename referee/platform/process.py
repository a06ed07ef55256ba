"""One bot process: send it lines, read one line back before a deadline, keep its stderr, and kill
every process it started at the end.

Every wait has a timeout and every failure is a typed exception whose message a person can act on.
Reading follows CodinGame's runner: an answer must end its line within 10,000 bytes (else it is a
timeout), '\\r', '\\n' and '\\r\\n' all end a line, lines are not trimmed, and bytes after the line
stay for the next turn.

"Every process it started" includes those that left its process group or session (`setsid`),
were orphaned, emptied their environment or fork without end: a `ProcessTree` owns them all, in a
cgroup of the bot's own where the machine allows it, else by a token and this process's adoption
of orphans (see ProcessTree). `python -m referee.platform.process` says which one this machine
gives. No close waits on a pipe without a bound: an orphan may keep the bot's pipes open. And a
process killed before it could close its bots (SIGKILL, the OOM killer) leaves them to its watcher,
a process that outlives it to end them (see `tell_watcher`).
"""

from __future__ import annotations

import atexit
import ctypes
import errno
import functools
import importlib.util
import itertools
import multiprocessing.util
import os
import re
import secrets
import selectors
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Iterable, Sequence
from pathlib import Path

from . import programs
from .bot_env import SEED_VARIABLE, TOKEN_VARIABLE
from .clock import turn_clock, turn_seconds
from .lateness import cpu_times_of, waits_on_a_pipe
from .limits import MAX_ANSWER_BYTES, STDERR_BYTES_PER_TURN

WARM_UP_SECONDS = 600  # for a bot's warm-up command: compiling numba kernels on a busy machine
# A program that `check_command` starts is watched this long for an exit before its first input: a
# bot must wait for the referee's first lines, so one that ends at once (an import or a library
# missing, a syntax error) cannot play. LOAD_FAILED: the status of a program whose libraries the
# system could not load (and of a shell whose command is not found).
START_CHECK_S = 0.25
LOAD_FAILED = 127
LOADER_FAILED = "error while loading shared libraries"  # what the loader says of a library not here
RUN_STDERR_BYTES = 16384  # the end of the stderr kept of a check or a warm-up: the error is there
STDERR_CUT = "more bytes of stderr not kept"  # the end of a turn's stderr cut at its bound
TAIL_BYTES = 1024  # the end of all a bot wrote on stderr, kept for its last line (`last_stderr_line`)


class BotError(Exception):
    """A bot failed. `reason` is a short word for records (timeout, crash, ...)."""

    reason = "error"


# What a bot that timed out waiting for input, having never written a byte, is told: a program whose
# output is a pipe, not a terminal, holds its lines in a buffer (C's printf, C++'s "\n", Python's
# print) until it is flushed; or the bot reads more than it was sent.
UNFLUSHED = (
    "it waits for input and wrote nothing: an answer printed but not flushed is still in its buffer "
    "(flush after each answer: fflush(stdout), std::endl, print(..., flush=True); or run a C or C++ "
    "program under `stdbuf -oL`), or it reads more lines than it was sent"
)


class BotTimeout(BotError):
    reason = "timeout"
    # Seconds the bot ran on a processor, and waited for one, during the turn it timed out in (0 where
    # the system does not say): `lateness.late_by_machine` tells the machine's fault from the bot's.
    ran: float = 0.0
    waited: float = 0.0


class BotExited(BotError):
    """The bot closed its output: it exited or crashed."""

    reason = "crash"


class BotStartError(BotError):
    reason = "start"


def signal_name(number: int) -> str:
    """A signal's name: SIGKILL, or SIGRTMIN+N for a real-time signal (34 to 64 on Linux), which
    has none of its own (`signal.Signals(40)` is a ValueError), else its number."""
    try:
        return signal.Signals(number).name
    except ValueError:
        pass
    low, high = getattr(signal, "SIGRTMIN", None), getattr(signal, "SIGRTMAX", None)
    if low is not None and high is not None and low <= number <= high:
        return f"SIGRTMIN+{number - low}"
    return f"signal {number}"


def split_command(command: str | Sequence[str]) -> list[str]:
    """A command line as an argument list (a string is split as a POSIX shell splits words)."""
    try:
        args = shlex.split(command) if isinstance(command, str) else list(command)
    except ValueError as exc:  # an unbalanced quote
        raise BotStartError(f"cannot split the command {command!r}: {exc}") from None
    if not args:
        raise BotStartError("empty command")
    return args


def _unquoted_path(args: Sequence[str], cwd: str | None) -> str:
    """A message's end telling to quote the path where the command's first words, joined by spaces,
    name a file: a path with spaces given unquoted (`sp dir/my solver.sh` runs `sp`); else ""."""
    for end in range(len(args), 1, -1):
        joined = " ".join(args[:end])
        if Path(cwd or ".", joined).is_file():
            return f"; the file {joined!r} has spaces in its path: quote it ({shlex.quote(joined)})"
    return ""


def check_command(command: str | Sequence[str], cwd: str | None = None, shown: str | None = None) -> list[str]:
    """The command's argument list, once its program is known to run: found on PATH, or a file
    (relative to `cwd`) that is executable, and the command started here waits for its first input
    (`_check_starts`). BotStartError saying what is wrong otherwise; the one rule of every command
    that runs a player (`referee volcanoes play`, the arena, on each of a cluster's machines) before
    any game. The program is the one `env` and its assignments run, if the command begins with them.
    `shown`: what the user calls the command (a pinned copy's command is not what they typed)."""
    args = split_command(command)
    first = program_index(args)
    run, assignments = args[first:], dict(word.split("=", 1) for word in args[1:first])
    program = run[0]
    if os.sep not in program:
        if shutil.which(program) is None:
            here = Path(cwd or ".", program)
            if not here.is_file():
                hint = None
            elif here.suffix == ".py":
                hint = f"run the file here by its interpreter ({sys.executable} {program})"
            else:
                hint = programs.source_hint(here) or f"the file here is ./{program}"
            hint = f"; {hint}" if hint else _unquoted_path(run, cwd)
            raise BotStartError(f"{program}: no such command (not on PATH){hint}")
    else:
        path = Path(cwd or ".", program)
        if not path.exists():
            raise BotStartError(f"{program}: no such file{_unquoted_path(run, cwd)}")
        if path.is_dir():
            raise BotStartError(f"{program} is a folder, not a program")
        if not os.access(path, os.X_OK):
            source = programs.source_hint(path)
            if source:
                raise BotStartError(f"{program}: {source}")
            hint = f"run it by its interpreter ({sys.executable} {program}) or " if path.suffix == ".py" else ""
            raise BotStartError(f"{program} is not executable: {hint}make it so (chmod +x {program})")
    _check_starts(run, assignments, cwd, shown)
    return args


# Lines of a crash's report that say where, not why: a stack's frames (indented: Java's "\tat ...",
# C#'s and Node's "   at ...", Go's "\t/path/main.go:5"), and what some runtimes print after the
# message (Node's version, Rust's advice, Java's "... 3 more").
_NOT_WHY = re.compile(r"\s|Node\.js v\d|note: run with `RUST_BACKTRACE|\.\.\. \d+ more")


def why_it_ended(text: str) -> str:
    """What a program's stderr says of why it ended: its last line that is not blank nor part of a
    stack (where a stack follows the message, as in Java, C#, Node and Go, the message, not the
    last frame); its last line where every line is; "" for none."""
    lines = [line for line in text.splitlines() if line.strip()]
    goroutines = next((i for i, line in enumerate(lines) if line.startswith("goroutine ")), None)
    if goroutines:  # Go: the panic's message comes before the stacks of its goroutines
        lines = lines[:goroutines]
    said = [line for line in lines if not _NOT_WHY.match(line)]
    return (said or lines or [""])[-1].strip()


def _check_starts(run: list[str], assignments: dict[str, str], cwd: str | None, shown: str | None) -> None:
    """BotStartError when the program and arguments `run` (`env`'s `assignments` in its environment)
    cannot play here: started once with its input open and nothing written to it, it must start
    (not a program of another processor or system, nor a script whose interpreter is not here) and
    still run after START_CHECK_S, waiting for its first input as every bot does (not ended by a
    missing library, module or file, or a syntax error); then it is ended, with everything it started. It is started, not read, because only the system
    and the interpreter know all it needs; a failure seen later than START_CHECK_S (a slow virtual
    machine's start) is still each game's crash. `shown`: the command as that message names it."""
    try:  # (the program itself, not `env`: the system's reason when it cannot start is about the program)
        code, said = _run_owned(run, cwd, START_CHECK_S, hold_input=True, variables=assignments)
    except OSError as exc:
        raise BotStartError(f"{run[0]} cannot start on this machine: {_why_not_started(exc, run[0], cwd)}") from None
    if code is None:
        return
    lines = said.strip().splitlines()
    if code == LOAD_FAILED and LOADER_FAILED in said:  # (a script's missing command exits 127 too: its own)
        raise BotStartError(
            f"{run[0]} cannot start on this machine ({programs.this_machine()}): it exited at once with status "
            f"{LOAD_FAILED}, that of a program whose libraries or commands are not here: "
            f"{lines[0] if lines else '(nothing on stderr)'}"
        )
    how = f"killed by {signal_name(-code)}" if code < 0 else f"status {code}"
    raise BotStartError(
        f"{shown or shlex.join(run)} ended before its first input ({how}): {why_it_ended(said) or '(nothing on stderr)'}"
    )


def _run_owned(
    args: list[str], cwd: str | None, seconds: float, hold_input: bool = False, variables: dict | None = None
) -> tuple[int | None, str]:
    """Run `args` in a `ProcessTree` of its own, its output discarded, for at most `seconds`: its
    exit status (None: it still ran, and was ended) and the end of its stderr (the last
    `RUN_STDERR_BYTES`: a flood is neither held in memory nor written to disk, and a process it left
    behind cannot hold the reading up); everything it started is ended either way. Its input: none,
    or with `hold_input` a pipe held open and never written (a bot waits there as for a referee);
    `variables` added to its environment. OSError when it cannot start."""
    tree = ProcessTree()
    env = {**os.environ, **variables} if variables else None
    stdin = subprocess.PIPE if hold_input else subprocess.DEVNULL
    try:
        proc = tree.start(args, env=env, cwd=cwd, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    except OSError:
        tree.end(None)
        raise
    sink = _StderrSink(proc.stderr.fileno(), RUN_STDERR_BYTES, keep_end=True)
    sink.start()
    try:
        code = proc.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        code = None
    finally:
        tree.end(proc)
        proc.wait()
        tree.forget()
        sink.stop(1.0)
        said = sink.take()
        for pipe in (proc.stdin, proc.stderr):
            if pipe is not None:
                pipe.close()
    return code, said


def _why_not_started(exc: OSError, program: str, cwd: str | None) -> str:
    """Why the system did not start `program`, with what the file is where that is the reason."""
    path = Path(cwd or ".", program)
    kind = programs.describe(path)
    if exc.errno == errno.ENOEXEC and kind == programs.NOT_A_PROGRAM:
        interpreter = "#!/usr/bin/env python3" if path.suffix == ".py" else "#!/bin/sh"
        return programs.source_hint(path) or (
            f"it is {kind} ({exc.strerror}): begin it with a #! line naming its interpreter ({interpreter})"
        )
    if exc.errno == errno.ENOEXEC and kind == programs.MARKED:
        return f"it is {kind} ({exc.strerror}): save it as UTF-8 without a byte order mark"
    if exc.errno == errno.ENOEXEC:
        return (
            f"it is {kind} and this machine is {programs.this_machine()} ({exc.strerror}): "
            "build it on this machine, or on one of the same processor and system"
        )
    if exc.errno == errno.ENOENT and path.is_file():
        if kind.endswith(programs.CARRIAGE_RETURN):  # the system looks for "/bin/sh\r"
            return f"it is {kind}: save it with Unix line endings (dos2unix does it)"
        if kind.startswith(programs.SCRIPT):
            return f"it is {kind}, an interpreter this machine does not have"
        return f"it is {kind}, whose loader this machine does not have (a program built on another system)"
    return _start_failure(exc, cwd)


def program_index(args: Sequence[str]) -> int:
    """Where a command's program is among its words: after `env` and its `NAME=VALUE` assignments
    (`env C=0.3 python3 bot.py` runs python3), else first. Where `env` is given options of its own
    (`env -i ...`, `env -C DIR ...`, `env -u NAME ...`), `env` is the program: it alone reads them."""
    if not args or args[0] != "env":
        return 0
    i = 1
    while i < len(args) and "=" in args[i] and not args[i].startswith("-"):
        i += 1
    if i < len(args) and args[i].startswith("-"):
        return 0
    return min(i, len(args) - 1)


def run_folder(args: Sequence[str], cwd: str | None = None) -> Path:
    """The folder a command's program runs in, where its relative file names point: `cwd`, or the
    folder `env -C DIR` (`--chdir=DIR`) moves it to (`env -C sub python3 bot.py` runs sub/bot.py)."""
    base = Path(cwd or ".")
    if not args or args[0] != "env":
        return base
    i = 1
    while i < len(args):
        word = args[i]
        if word in ("-C", "--chdir") and i + 1 < len(args):
            return base / args[i + 1]
        if word.startswith("--chdir="):
            return base / word.partition("=")[2]
        if word.startswith("-C") and len(word) > 2:
            return base / word[2:]
        if word in ("-u", "--unset"):
            i += 2
        elif word.startswith("-") or "=" in word:
            i += 1
        else:  # the program env runs
            break
    return base


def module_file(args: Sequence[str], cwd: str | None = None) -> Path | None:
    """The file of the module a Python command runs (`python3 -m mybots.lowest`: mybots/lowest.py,
    or a package's __main__.py), found from the folder it runs in; None for another command, or a
    module found elsewhere (installed)."""
    if "-m" not in args[:-1]:
        return None
    module = run_folder(args, cwd).joinpath(*args[args.index("-m") + 1].split("."))
    return next(
        (path for path in (module.with_name(module.name + ".py"), module / "__main__.py") if path.is_file()), None
    )


def command_files(command: str | Sequence[str], cwd: str | None = None) -> list[Path]:
    """The files a command line names outside the folder it runs in (`cwd`), each once, absolute:
    an argument that is the path of a file, relative to `cwd` or absolute (`java -jar ../ref.jar`,
    `python3 /home/me/bot.py`). Its program counts only when given by a relative path (`../bin/bot`):
    a program named alone or by an absolute path (`python3`, `/usr/bin/java`) is the machine's. What
    a command needs to run on another machine, beside its folder."""
    args = split_command(command)
    base = Path(os.path.abspath(cwd or "."))
    program = program_index(args)
    found: list[Path] = []
    for i, arg in enumerate(args):
        if i < program or (i == program and (os.sep not in arg or os.path.isabs(arg))):
            continue
        path = Path(os.path.normpath(base / arg))
        if path.is_file() and not path.is_relative_to(base) and path not in found:
            found.append(path)
    return found


def warm_up_command(command: str | Sequence[str], cwd: str | None = None) -> list[str] | None:
    """The command that prepares bot `command` before its games, or None when it has none.

    The convention: a bot run as a module (`python -m PACKAGE.NAME`) whose package also has a
    `warmup` module is prepared by `python -m PACKAGE.warmup NAME` (for this project's bots it
    compiles their numba kernels into the cache, so no game's clock runs while they compile). The
    package is looked for in the folder the command runs in (`python -m` imports from there first),
    and, where that folder holds none of it and the program is this very Python, wherever this Python
    finds it (installed: the command given from another folder)."""
    args = split_command(command)
    if "-m" not in args[1:-1] or "." not in args[args.index("-m") + 1]:
        return None
    at = args.index("-m")
    package, name = args[at + 1].rsplit(".", 1)
    here = Path(cwd or ".")
    if (here / package.split(".")[0]).exists():
        found = (here / Path(*package.split(".")) / "warmup.py").is_file()
    else:
        found = _is_this_python(args[0]) and _has_module(f"{package}.warmup")
    return [*args[:at], "-m", f"{package}.warmup", name] if found else None


def _is_this_python(program: str) -> bool:
    found = shutil.which(program)
    return found is not None and os.path.realpath(found) == os.path.realpath(sys.executable)


def _has_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # (a parent package that cannot be imported)
        return False


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
    try:  # (a warm-up is the bot's code too: nothing it starts outlives it)
        code, message = _run_owned(prepare, cwd, WARM_UP_SECONDS)
    except OSError as exc:
        raise BotStartError(f"cannot start its warm-up {shlex.join(prepare)}: {_start_failure(exc, cwd)}") from None
    if code is None:
        raise BotStartError(f"its warm-up took more than {WARM_UP_SECONDS} s")
    if code != 0:
        last = (message.strip().splitlines() or ["(no message)"])[-1]
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
        self._tail = bytearray()  # the last TAIL_BYTES of all it read, taken or not: its last words
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
            self._tail += chunk
            del self._tail[:-TAIL_BYTES]
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

    def last_line(self) -> str:
        """What the end of all it wrote says of why it ended (`why_it_ended`: an exception's message,
        not its stack's last frame), past whatever `take` kept of its turn; "" if nothing."""
        with self._lock:
            self._drain()
            text = self._tail.decode("utf-8", "replace")
        return why_it_ended(text)

    def take(self) -> str:
        with self._lock:
            self._drain()
            text = self._kept.decode("utf-8", "replace")
            if self._dropped and self._keep_end:
                text = f"[{self._dropped} earlier bytes of stderr not kept]\n" + text
            elif self._dropped:
                text += f"\n[{self._dropped} {STDERR_CUT}]"
            self._kept.clear()
            self._dropped = 0
        return text


# ---------------------------------------------------------------- every process a bot started

CGROUP = "cgroup"  # the mechanisms that end a bot's process tree: see ProcessTree
TOKEN = "token and subreaper"
NO_CGROUP_VARIABLE = "CALDERA_NO_CGROUP"  # set (non-empty): use the fallback even where cgroups work

_PROC = Path("/proc")
_PR_SET_CHILD_SUBREAPER = 36  # linux/prctl.h
_PIDS_AHEAD = 64  # pids past the newest that a read of /proc also looks at
_FIRST_WRAPPED_PID = 300  # where the kernel's pids start again past pid_max (RESERVED_PIDS)
_ANY_TOKEN = f"{TOKEN_VARIABLE}=".encode()
_live_bots: set[int] = set()  # pids of this process's bots (direct children) not yet closed
_open: weakref.WeakSet = weakref.WeakSet()  # this process's BotProcess objects not yet closed
_bots_lock = threading.Lock()  # a bot being started is never taken for a leftover of another
_claimed_orphans = False
_home: Path | None | bool = False  # this process's folder of bot cgroups; None: none; False: not made yet
_home_lock = threading.Lock()
_cgroup_numbers = itertools.count(1)


def _forget_parent_after_fork() -> None:
    """A forked child (an arena worker) starts with none of its parent's bots: closing its own must
    never touch the parent's; it makes its own folder of cgroups; and a subreaper's role is not
    inherited (prctl(2)), so it claims orphans again if it needs to."""
    global _home, _home_lock, _live_bots, _open, _bots_lock, _claimed_orphans
    _home, _home_lock = False, threading.Lock()
    _live_bots, _open, _bots_lock = set(), weakref.WeakSet(), threading.Lock()
    _claimed_orphans = False
    _forget_watcher()


os.register_at_fork(after_in_child=_forget_parent_after_fork)


def _own_cgroup() -> Path | None:
    """This process's cgroup v2 folder (under the cgroup2 mount that holds it), or None."""
    try:
        membership = (_PROC / "self" / "cgroup").read_text().splitlines()
        mounts = (_PROC / "self" / "mountinfo").read_text().splitlines()
    except OSError:
        return None
    own = next((line[3:] for line in membership if line.startswith("0::")), None)
    if own is None:
        return None
    for line in mounts:
        fields = line.split()
        if "-" not in fields[5:] or fields[fields.index("-", 5) + 1 :][:1] != ["cgroup2"]:
            continue
        root, mountpoint = (re.sub(r"\\([0-7]{3})", lambda m: chr(int(m[1], 8)), f) for f in fields[3:5])
        if own == root or own.startswith(root.rstrip("/") + "/"):
            return Path(mountpoint, own[len(root) :].lstrip("/"))
    return None


def _home_name(pid: int) -> str:
    """The name of process `pid`'s folder of bot cgroups: its pid namespace, pid and start time
    (so a folder whose owner is gone is told from one whose pid was reused, or seen from elsewhere)."""
    try:
        namespace = os.readlink(_PROC / "self" / "ns" / "pid").split("[")[-1].rstrip("]")
    except OSError:
        namespace = "0"
    return f"caldera-{namespace}-{pid}-{_start_time(pid)}"


def _cgroup_home() -> Path | None:
    """The cgroup v2 folder in which this process makes one cgroup per bot: `caldera-...` in its
    own cgroup, made at the first call, removed at exit. None where there is none to be had: no
    cgroup v2, no right to write in this process's cgroup (neither root nor delegated), or cgroups
    turned off by CALDERA_NO_CGROUP."""
    global _home
    with _home_lock:
        if _home is False:
            _home = None if os.environ.get(NO_CGROUP_VARIABLE) else _make_home()
        return _home


def _make_home() -> Path | None:
    own = _own_cgroup()
    if own is None or not (own / "cgroup.procs").is_file():
        return None
    _remove_stale_homes(own)
    home = own / _home_name(os.getpid())
    try:
        home.mkdir()
    except OSError:
        return None
    if not ((home / "cgroup.kill").exists() or (home / "cgroup.freeze").exists()):  # before Linux 5.2
        _remove_cgroup(home)
        return None
    tell_watcher(f"home {home}")  # ended by the watcher if this process dies before its atexit
    atexit.register(_remove_home_at_exit, home, os.getpid())  # with any bot left in it (one never closed)
    # A forked pool worker ends with os._exit, past atexit: multiprocessing runs its finalizers first.
    multiprocessing.util.Finalize(None, _remove_home_at_exit, (home, os.getpid()), exitpriority=0)
    return home


def _remove_home_at_exit(home: Path, owner: int) -> None:
    if os.getpid() == owner:  # not in a forked child that exits: the folder is its parent's
        _remove_cgroup(home)


def _remove_stale_homes(own: Path) -> None:
    """Kill and remove the bot cgroups of processes of this pid namespace that are gone (killed
    before they could end their bots, as by SIGKILL or the OOM killer)."""
    mine = _home_name(os.getpid()).split("-")[1]
    try:
        folders = [p for p in own.iterdir() if p.name.startswith(f"caldera-{mine}-")]
    except OSError:
        return
    for folder in folders:
        _, _, pid, started = folder.name.split("-", 3)
        if pid.isdigit() and _home_name(int(pid)) != folder.name:
            _remove_cgroup(folder)


def _cgroup_populated(path: Path) -> bool:
    try:
        return "populated 1" in (path / "cgroup.events").read_text()
    except OSError:
        return False


def _kill_cgroup(path: Path) -> None:
    """SIGKILL every process in cgroup `path` and its descendants: through cgroup.kill (Linux 5.14),
    else frozen first (no process of a frozen cgroup forks) and killed one by one."""
    try:
        (path / "cgroup.kill").write_text("1")
        return
    except FileNotFoundError:
        pass
    except OSError:
        return
    try:
        (path / "cgroup.freeze").write_text("1")
        deadline = time.monotonic() + 1.0
        while "frozen 1" not in (path / "cgroup.events").read_text() and time.monotonic() < deadline:
            time.sleep(0.001)
        for folder in [path, *(p for p in path.rglob("*") if p.is_dir())]:
            for pid in (folder / "cgroup.procs").read_text().split():
                try:
                    os.kill(int(pid), signal.SIGKILL)  # a fatal signal ends even a frozen process
                except (ProcessLookupError, PermissionError):
                    pass
        (path / "cgroup.freeze").write_text("0")
    except OSError:
        pass


def _remove_cgroup(path: Path, seconds: float = 5.0) -> None:
    """Kill everything in cgroup `path` until it holds no process (or `seconds`), then remove it
    and the cgroups in it."""
    deadline = time.monotonic() + seconds
    while True:
        _kill_cgroup(path)
        if not _cgroup_populated(path) or time.monotonic() > deadline:
            break
        time.sleep(0.002)
    try:
        folders = sorted((p for p in path.rglob("*") if p.is_dir()), key=lambda p: len(p.parts), reverse=True)
    except OSError:
        folders = []
    for folder in [*folders, path]:
        try:
            folder.rmdir()
        except OSError:
            pass


# ---------------------------------------------------------------- what outlives this process

# A process killed with SIGKILL (or by the OOM killer) runs no cleanup: its bots would live on, in their
# cgroups or as init's orphans. So the first bot of a process starts its *watcher*, a small process in
# a session of its own, deaf to the signals a terminal or a process group sends, which reads what this
# process tells it through a pipe only this process writes to: its folder of bot cgroups, or each
# bot's token and session. The pipe's end, when this process is gone however it went, is the
# watcher's cue to kill all of it, then to exit. A forked child (a pool's worker) closes its copy of
# the pipe at once and starts a watcher of its own with its first bot. The watcher is a grandchild:
# a Ray worker that sees its raylet die kills its own children before it exits (the watcher's parent,
# which only waits for it), not theirs.
_watch_fd: int | None = None  # the pipe's end this process writes to
_watcher_pid: int | None = None
_watcher_lock = threading.Lock()


def tell_watcher(message: str) -> None:
    """Tell this process's watcher one line (`home PATH`, `token T`, `session T PID START`, `ended T`),
    starting it first if need be. Never blocks: a watcher too slow to read loses the line."""
    global _watch_fd
    with _watcher_lock:
        if _watch_fd is None:
            _watch_fd = _start_watcher()
        if _watch_fd is None:
            return
        try:
            os.write(_watch_fd, message.encode() + b"\n")
        except OSError:  # a full pipe (a stuck watcher), or a dead one
            pass


def _start_watcher() -> int | None:
    """Start this process's watcher (`watch_until_orphaned`); the pipe's end to write to, or None
    where it cannot start."""
    global _watcher_pid
    module = __spec__.name if __spec__ is not None else __name__
    root = str(Path(__file__).resolve().parents[module.count(".")])
    code = (
        f"import sys; sys.path.insert(0, {root!r}); from {module} import watch_until_orphaned; watch_until_orphaned()"
    )
    read_end, write_end = os.pipe()  # neither is inherited by an exec: the watcher gets read_end as stdin
    try:
        watcher = subprocess.Popen(
            [sys.executable, "-I", "-S", "-c", code, f"--owner={os.getpid()}"],  # the owner: for people
            stdin=read_end,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            env={},  # none of its owner's: a process that looks for its own by their environment
        )
    except OSError:
        os.close(write_end)
        return None
    finally:
        os.close(read_end)
    _watcher_pid = watcher.pid
    os.set_blocking(write_end, False)
    return write_end


def _forget_watcher() -> None:
    """In a forked child: the parent's watcher is not its own."""
    global _watch_fd, _watcher_pid, _watcher_lock
    if _watch_fd is not None:
        try:
            os.close(_watch_fd)
        except OSError:
            pass
    _watch_fd, _watcher_pid, _watcher_lock = None, None, threading.Lock()


def watch_until_orphaned() -> None:
    """The watcher's life: read what its owner says until the pipe ends (the owner is gone), then kill
    every process of the owner's bots still alive: its cgroups whole, or what holds the bots' tokens or
    runs in their sessions (`_kill_marked`)."""
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(number, signal.SIG_IGN)
    child = os.fork()
    if child:  # Ray's workers kill their children as they die: this one, which only waits; not its child
        os.waitpid(child, 0)
        os._exit(0)
    homes: set[str] = set()
    tokens: set[str] = set()
    sessions: dict[str, tuple[int, int]] = {}  # token -> (its bot's pid, the bot's start time)
    for line in sys.stdin.buffer:
        kind, _, rest = line.decode("utf-8", "replace").rstrip("\n").partition(" ")
        if kind == "home":
            homes.add(rest)
        elif kind == "token":
            tokens.add(rest)
        elif kind == "session":
            token, pid, started = rest.split()
            sessions[token] = (int(pid), int(started))
        elif kind == "ended":
            tokens.discard(rest)
            sessions.pop(rest, None)
    for home in homes:
        _remove_cgroup(Path(home))
    if tokens:
        _kill_marked(tokens, list(sessions.values()))


def _kill_marked(tokens: set[str], sessions: list[tuple[int, int]], least: float = 1.0, most: float = 5.0) -> None:
    """Kill every process that holds one of `tokens` in its environment or runs in one of `sessions`
    (a bot's pid and start time: its session's id), with its process group, until five reads of
    /proc in a row, and `least` seconds, found none (or `most` seconds). Each read kills what it
    finds at once, newest first (`_pids_newest_first`): the group's kill then ends a whole fork
    chain, which one read sees only half the time on a busy machine."""
    markers = [f"{TOKEN_VARIABLE}={token}\0".encode() for token in tokens]
    since = min((started for _, started in sessions), default=0)
    me = os.getpid()
    quiet_since = started_at = time.monotonic()
    empty_reads = 0
    while time.monotonic() < started_at + most:
        if empty_reads >= 5 and time.monotonic() - quiet_since >= least:
            return
        found = False
        for pid in _pids_newest_first():
            row = _stat(pid)
            if row is None or pid == me or row[3] in ("Z", "X"):
                continue
            _, group, sid, _, started = row
            if any(sid == bot and started >= born for bot, born in sessions) or (
                started >= since and any(_holds_token(pid, marker) for marker in markers)
            ):
                found = True
                for kill, target in ((os.killpg, group), (os.kill, pid)):
                    try:
                        kill(target, signal.SIGKILL)
                    except (ProcessLookupError, PermissionError):
                        pass
        if found:
            empty_reads, quiet_since = 0, time.monotonic()
        else:
            empty_reads += 1
        time.sleep(0.01)


def claim_orphans() -> bool:
    """Make this process the subreaper of its descendants (Linux) where bots are not contained by
    cgroups: an orphaned descendant becomes its child instead of init's, so closing a bot can find
    and kill (and reap) even one that left the bot's session and environment. An adopted child is
    taken for a bot's leftover only outside this process's session (every bot starts a session of
    its own), so the children this process starts itself are never mistaken for one. BotProcess
    calls it where it needs it; True if this process is (now) a subreaper for its bots."""
    global _claimed_orphans
    if _claimed_orphans:
        return True
    if not sys.platform.startswith("linux") or _cgroup_home() is not None:
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
            return False
    except (OSError, AttributeError):
        return False
    _claimed_orphans = True
    return True


def containment() -> str:
    """How this process ends its bots' process trees, in words (`python -m referee.platform.process`)."""
    home = _cgroup_home()
    if home is not None:
        way = "cgroup.kill" if (home / "cgroup.kill").exists() else "freezing it, then SIGKILL to each process"
        return f"{CGROUP}: each bot in a cgroup of its own, in {home}, ended by {way}"
    if not _PROC.is_dir():
        return "process group: only the bot's process group is killed (no /proc)"
    return f"{TOKEN}: a token in each bot's environment, its session, and orphans adopted as their subreaper"


def process_table() -> dict[int, tuple[int, int, int, str, int]]:
    """Every process visible now: pid -> (parent pid, process group, session id, state letter,
    start time in clock ticks since boot), newest first (`_pids_newest_first`). {} without /proc."""
    table = {}
    for pid in _pids_newest_first():
        row = _stat(pid)
        if row is not None:
            table[pid] = row
    return table


def _pids_newest_first() -> list[int]:
    """The pids of /proc, newest first (`newest_first`), after the next ones (not listed yet: a
    process may take one since): a fork chain's processes live microseconds each, and a read of /proc
    listed first and then looked at in pid order all but never sees one (its newest is gone before
    its turn comes, its child born after the list); newest first, it mostly does."""
    try:
        listed = [int(name) for name in os.listdir(_PROC) if name.isdigit()]
    except OSError:
        return []
    if not listed:
        return []
    return newest_first(listed, _read_int(_PROC / "sys/kernel/ns_last_pid", max(listed)), _pid_max())


def newest_first(listed: list[int], last: int, pid_max: int) -> list[int]:
    """`listed` pids in the order the kernel gave them out, newest first, after the _PIDS_AHEAD pids it
    gives out next, given `last`, the pid it gave last, and `pid_max`, where it wraps to
    _FIRST_WRAPPED_PID. By recency, not by value: past the wrap, which a machine that starts many
    processes reaches in minutes (pid_max is 32,768 by default), the newest pids are the lowest, and
    a chain among them is missed by a read that starts at the highest."""
    span = pid_max - _FIRST_WRAPPED_PID

    def wrapped(pid: int) -> int:
        return pid if pid < pid_max else _FIRST_WRAPPED_PID + (pid - pid_max) % span

    ahead = [wrapped(last + i) for i in range(_PIDS_AHEAD, 0, -1)]
    return [*ahead, *sorted(listed, key=lambda pid: (last - pid) % pid_max)]


@functools.cache
def _pid_max() -> int:
    return _read_int(_PROC / "sys/kernel/pid_max", 4194304)  # (the kernel's largest)


def _read_int(path: Path, default: int) -> int:
    try:
        return int(path.read_text())
    except (OSError, ValueError):
        return default


def _stat(pid: int) -> tuple[int, int, int, str, int] | None:
    """Process `pid`'s (parent pid, process group, session id, state letter, start time), or None."""
    try:
        stat = (_PROC / str(pid) / "stat").read_bytes()
        fields = stat[stat.rindex(b")") + 2 :].split()
        return int(fields[1]), int(fields[2]), int(fields[3]), fields[0].decode(), int(fields[19])
    except (OSError, ValueError, IndexError):
        return None


def descendants(table: dict[int, tuple], roots: Iterable[int]) -> set[int]:
    """The processes of `table` (`process_table()`) that descend from any of `roots`."""
    children: dict[int, list[int]] = {}
    for pid, (ppid, *_) in table.items():
        children.setdefault(ppid, []).append(pid)
    found: set[int] = set()
    stack = list(roots)
    while stack:
        for child in children.get(stack.pop(), ()):
            if child not in found:
                found.add(child)
                stack.append(child)
    return found


def signal_each(pids: Iterable[int], sig: int) -> None:
    """Send `sig` to each of `pids`, passing over those gone or not ours to signal."""
    for pid in pids:
        try:
            os.kill(pid, sig)
        except (ProcessLookupError, PermissionError):
            pass


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


def _leftovers(bot_pid: int | None, marker: bytes, since: int) -> tuple[list[int], list[int], set[int]]:
    """(live, dead, process groups) of the processes that the bot started: those holding its token,
    in its session, or descending from either; where this process claimed orphans, also any child of
    ours in another session than ours that is no live bot and holds no bot's token."""
    me, my_session = os.getpid(), os.getsid(0)
    table, found = {}, set()
    for pid in _pids_newest_first():
        row = _stat(pid)
        if row is None:
            continue
        table[pid] = row
        ppid, _, sid, _, started = row
        if pid in (me, bot_pid, _watcher_pid):
            continue
        # Only a process started since the bot can hold its token: the others' environments go unread.
        # Read as soon as its row is (a fork chain's process is gone a moment later).
        if (bot_pid is not None and sid == bot_pid) or (started >= since and _holds_token(pid, marker)):
            found.add(pid)
        elif (
            _claimed_orphans
            and ppid == me
            and sid != my_session
            and pid not in _live_bots
            and not _holds_token(pid, _ANY_TOKEN)
        ):
            found.add(pid)  # an orphan adopted by this process, and no other bot's
    # Their descendants, even those that dropped the token.
    found |= descendants(table, [*found, *([bot_pid] if bot_pid is not None else [])]) - {me}
    live = [pid for pid in found if table.get(pid, (0, 0, 0, "Z", 0))[3] not in ("Z", "X")]
    dead = [pid for pid in found if pid not in live]
    # Their process groups (a group never spans sessions, and these sessions are the bot's making),
    # the dead's too: a fork chain's processes are seen mostly as the zombies they leave, orphans
    # adopted by this process, whose group (kept while they are not reaped) is the chain's.
    groups = {table[pid][1] for pid in found if pid in table and table[pid][2] != my_session}
    return live, dead, groups


def _kill_leftovers(bot_pid: int | None, marker: bytes, since: int, seconds: float = 3.0) -> None:
    """Kill (and, being their subreaper, reap) the bot's leftovers until three reads of /proc in a row
    find none (one may miss a process born after the list was read whose parent was gone before
    its turn came), or `seconds`. `bot_pid` is None once the bot was reaped: its number may be
    another process's by now."""
    deadline = time.monotonic() + seconds
    empty_reads = 0
    while True:
        with _bots_lock:
            live, dead, groups = _leftovers(bot_pid, marker, since)
        for group in groups:  # the whole group at once: a fork in it cannot slip between two kills
            try:
                os.killpg(group, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        signal_each(live, signal.SIGKILL)
        for pid in dead:
            try:
                os.waitpid(pid, os.WNOHANG)  # only our children: others are not ours to reap
            except (ChildProcessError, OSError):
                pass
        empty_reads = 0 if live else empty_reads + 1
        if empty_reads == 3 or time.monotonic() > deadline:
            return
        time.sleep(0.01)  # let the killed go, and any fork they raced with show up


def close_all() -> None:
    """Close every bot process of this process still open (a worker about to exit mid-game)."""
    for bot in list(_open):
        try:
            bot.close()
        except Exception:  # noqa: BLE001 - exiting anyway: the next one still gets closed
            pass


class ProcessTree:
    """Every process one bot starts, from the bot's start to its end: `start()` starts the bot,
    `end()` kills every process it started, whatever they did meanwhile. `mechanism` says how:

    - CGROUP, where the machine allows it (cgroup v2, and the right to make cgroups in this
      process's own: root, or a delegated cgroup): the bot starts inside a cgroup of its own, which
      every process it starts inherits and cannot leave (short of root's rights). Ending it is
      `cgroup.kill`, which the kernel applies to every process of the cgroup at once, fork chains
      included.
    - TOKEN elsewhere (the fallback): the bot runs in a session of its own with a token in its
      environment (inherited by whatever it starts), and this process becomes the subreaper of its
      descendants (`claim_orphans`). Ending kills, until none is left, every process in the bot's
      session, holding the token, adopted by this process from another session, or descending from
      one of these, and their process groups (on Linux through /proc; elsewhere only the process
      group is killed). A chain of processes that each leave their session and fork faster than
      /proc is read can outrun it: only a cgroup ends such a chain for sure.
    """

    def __init__(self):
        self.cgroup: Path | None = None
        self._procs_fd: int | None = None
        home = _cgroup_home()
        if home is not None:
            path = home / f"bot-{next(_cgroup_numbers)}"
            try:
                path.mkdir()
                self._procs_fd = os.open(path / "cgroup.procs", os.O_WRONLY | os.O_CLOEXEC)
                self.cgroup = path
            except OSError:
                _remove_cgroup(path)
        self.token = None if self.cgroup else secrets.token_hex(16)
        self._started = 0
        self._pid: int | None = None

    @property
    def mechanism(self) -> str:
        return CGROUP if self.cgroup else TOKEN

    def start(self, args: list[str], *, env: dict[str, str] | None = None, **popen) -> subprocess.Popen:
        """Start the bot: `subprocess.Popen(args, env=env, **popen)` in a session of its own, inside
        its cgroup or with its token. OSError when it cannot start."""
        env = dict(os.environ if env is None else env)
        while True:
            if self.cgroup is None:
                claim_orphans()
                env[TOKEN_VARIABLE] = self.token
                tell_watcher(f"token {self.token}")  # before the bot runs: nothing it starts goes unseen
            # In the child, before it runs the bot: "0" moves the process that writes it.
            join = None if self._procs_fd is None else functools.partial(os.write, self._procs_fd, b"0")
            try:
                with _bots_lock:
                    proc = subprocess.Popen(args, env=env, start_new_session=True, preexec_fn=join, **popen)
                    _live_bots.add(proc.pid)
                break
            except subprocess.SubprocessError:  # it could not join its cgroup: take the fallback
                self._give_up_cgroup()
        self._pid = proc.pid
        self._started = _start_time(proc.pid)
        if self.cgroup is None:
            tell_watcher(f"session {self.token} {proc.pid} {self._started}")
        return proc

    def _give_up_cgroup(self) -> None:
        global _home
        with _home_lock:
            _home = None  # one bot could not join a cgroup: no later one tries
        self._close_procs_fd()
        _remove_cgroup(self.cgroup)
        self.cgroup, self.token = None, secrets.token_hex(16)

    def _close_procs_fd(self) -> None:
        if self._procs_fd is not None:
            os.close(self._procs_fd)
            self._procs_fd = None

    def end(self, proc: subprocess.Popen | None) -> None:
        """Kill every process the bot `proc` started (and the bot). Bounded in time even when a
        process out of reach (another user's) survives."""
        self._close_procs_fd()
        if self.cgroup is not None:
            _remove_cgroup(self.cgroup)
        elif proc is not None:
            pid = proc.pid
            reaped = proc.returncode is not None  # then `pid` may be another process's by now
            if not reaped:
                try:
                    os.killpg(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            # Before the bot is reaped, its pid (and so its session's id) cannot be reused.
            _kill_leftovers(None if reaped else pid, f"{TOKEN_VARIABLE}={self.token}\0".encode(), self._started)

    def cpu_times(self) -> tuple[float, float] | None:
        """(seconds run, seconds waited for a processor) of the processes in the bot's cgroup: its
        usage, and its pressure (the time some of them were ready to run and none ran); None without
        a cgroup."""
        if self.cgroup is None:
            return None
        try:
            usage = (self.cgroup / "cpu.stat").read_text().split("\n", 1)[0]
            some = (self.cgroup / "cpu.pressure").read_text().split("\n", 1)[0]
            return int(usage.split()[1]) * 1e-6, int(some.rsplit("total=", 1)[1]) * 1e-6
        except (OSError, IndexError, ValueError):
            return None

    def forget(self) -> None:
        """The bot was reaped: it is no live bot of this process any more."""
        with _bots_lock:
            _live_bots.discard(self._pid)
        if self.token is not None:
            tell_watcher(f"ended {self.token}")


def _start_failure(exc: OSError, cwd: str | None) -> str:
    """Why a process did not start: its folder missing is said so (Popen's "No such file or
    directory" would blame the program, which may well be there)."""
    if cwd is not None and not os.path.isdir(cwd):
        return f"its folder {cwd} does not exist here"
    return exc.strerror or str(exc)


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
            why = f"{_start_failure(exc, cwd)}{_unquoted_path(self.args, cwd)}"
            raise BotStartError(
                f"cannot start {self.args[0]!r} (the program of {shlex.join(self.args)}): {why}"
            ) from exc
        self._closed = False
        _open.add(self)
        self._stdin_fd = self._proc.stdin.fileno()
        self._stdout_fd = self._proc.stdout.fileno()
        os.set_blocking(self._stdin_fd, False)
        os.set_blocking(self._stdout_fd, False)
        self._pending = bytearray()  # bytes read past the last answer
        self._after_cr = False  # a '\n' right after a '\r' ends nothing
        self._stdout_closed = False
        self._wrote = False  # anything at all on its stdout so far
        self._stderr = _StderrSink(self._proc.stderr.fileno(), stderr_bytes_per_turn, stderr_keeps_end)
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
                    if self._line_ends_at_exit and self._pending:
                        line = bytes(self._pending).decode("utf-8", "replace")
                        self._pending.clear()
                        return line
                    raise BotExited(self._exit_message())
                left = deadline - time.perf_counter()
                if left <= 0:
                    raise BotTimeout(self._no_answer())
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
                return f"no answer in time: {UNFLUSHED}"
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


if __name__ == "__main__":
    from .commands import CommandParser

    CommandParser(
        prog="python -m referee.platform.process", description="Say how bots' process trees are ended here."
    ).parse_args()
    print(containment())
