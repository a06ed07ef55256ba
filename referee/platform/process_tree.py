"""Every process a bot starts, ended with the bot: a cgroup of the bot's own where the machine allows
it, else a token in the bot's environment and this process's adoption of orphans (see ProcessTree);
and a watcher, a process that outlives its owner to end the bots of an owner killed before it could
(SIGKILL, the OOM killer). `python -m referee.platform.process_tree` says which mechanism this
machine gives.

Only the standard library and `bot_env`: the watcher imports this module with `python -I -S`.
"""

from __future__ import annotations

import atexit
import ctypes
import functools
import itertools
import multiprocessing.util
import os
import re
import secrets
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Iterable
from pathlib import Path

from .bot_env import TOKEN_VARIABLE

CGROUP = "cgroup"  # the mechanisms that end a bot's process tree: see ProcessTree
TOKEN = "token and subreaper"
NO_CGROUP_VARIABLE = "CALDERA_NO_CGROUP"  # set (non-empty): use the fallback even where cgroups work

_PROC = Path("/proc")
_PR_SET_CHILD_SUBREAPER = 36  # linux/prctl.h
_PIDS_AHEAD = 64  # pids past the newest that a read of /proc also looks at
_FIRST_WRAPPED_PID = 300  # where the kernel's pids start again past pid_max (RESERVED_PIDS)
_ANY_TOKEN = f"{TOKEN_VARIABLE}=".encode()
_live_bots: set[int] = set()  # pids of this process's bots (direct children) not yet closed
_open: weakref.WeakSet = weakref.WeakSet()  # this process's bots (`track`) not yet closed
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
    """How this process ends its bots' process trees, in words (`python -m referee.platform.process_tree`)."""
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


def _cpu_ticks(pid: int) -> int | None:
    """Clock ticks process `pid` ran, in user and system mode, with those of the children it reaped
    (/proc/PID/stat's utime, stime, cutime, cstime), or None."""
    try:
        stat = (_PROC / str(pid) / "stat").read_bytes()
        return sum(int(field) for field in stat[stat.rindex(b")") + 2 :].split()[11:15])
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


def track(bot) -> None:
    """Count `bot` (a BotProcess, or anything whose `close()` ends its processes) among this process's
    open bots, until it is closed or forgotten: `close_all` closes it."""
    _open.add(bot)


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

    def cpu_seconds(self) -> float | None:
        """Seconds run on a processor by every process of the bot's tree since it started, read
        before `end()` (whose kill leaves what a process ran unreaped, so uncounted by
        RUSAGE_CHILDREN: a bot started by a wrapper script that does not exec it): its cgroup's usage,
        else each process's of the tree still there, with what the children it reaped ran (/proc);
        None where neither says."""
        if self.cgroup is not None:
            try:
                return int((self.cgroup / "cpu.stat").read_text().split("\n", 1)[0].split()[1]) * 1e-6
            except (OSError, IndexError, ValueError):
                return None
        if self._pid is None:
            return None
        with _bots_lock:
            live, dead, _ = _leftovers(self._pid, f"{TOKEN_VARIABLE}={self.token}\0".encode(), self._started)
        ticks = [_cpu_ticks(pid) for pid in {self._pid, *live, *dead}]
        known = [t for t in ticks if t is not None]
        return sum(known) / os.sysconf("SC_CLK_TCK") if known else None

    def forget(self) -> None:
        """The bot was reaped: it is no live bot of this process any more."""
        with _bots_lock:
            _live_bots.discard(self._pid)
        if self.token is not None:
            tell_watcher(f"ended {self.token}")


if __name__ == "__main__":
    from .commands import CommandParser

    CommandParser(
        prog="python -m referee.platform.process_tree", description="Say how bots' process trees are ended here."
    ).parse_args()
    print(containment())
