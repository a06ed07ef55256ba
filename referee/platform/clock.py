"""Time as the operating system counts it for this process: how long it has lived, and how long
it has waited for a processor. Standard library only (the bundled submission imports it).

Why the second: a turn's time runs from the referee's write to the bot's answer, but either side can
spend part of it waiting for a processor (on a busy machine, up to 60 ms before a bot woken by its
turn read anything). Linux counts such waits per thread (/proc/thread-self/schedstat). So a bot
starts a turn's clock earlier by its wait before the read (`bots.volcanoes.bot.read_turns`), and the
referee does not charge a bot with its own wait after the answer came (`BotProcess.ask`). Whether a
timeout was the machine's fault is `referee.platform.lateness`'s (the referee's side: the bundled
submission does not carry it).
"""

from __future__ import annotations

import os
import threading
import time

_SCHEDSTATS = ("/proc/thread-self/schedstat", "/proc/self/schedstat")
# Each thread's open schedstat file, by thread: a file of /proc/thread-self describes the thread that
# opened it, and after a fork its parent's (a pool's worker read its parent's waits, which do not
# move, and saw none of its own).
_schedstats: dict[int, int | None] = {}  # thread ident -> file descriptor (None: the system says nothing)
_owner = os.getpid()


def _open_schedstat() -> int | None:
    for path in _SCHEDSTATS:
        try:
            fd = os.open(path, os.O_RDONLY)
            int(os.pread(fd, 64, 0).split()[1])
            return fd
        except (OSError, ValueError, IndexError, AttributeError):  # (no pread off Unix)
            continue
    return None


def _forget_schedstats() -> None:
    for fd in _schedstats.values():
        if fd is not None:
            try:
                os.close(fd)
            except OSError:
                pass
    _schedstats.clear()


def waited_for_cpu() -> float:
    """Seconds this thread has spent ready to run but waiting for a processor since it started
    (Linux); always 0.0 where the system does not say. About a microsecond a call."""
    global _owner
    if os.getpid() != _owner:  # a forked child: its parent's files are not its own
        _forget_schedstats()
        _owner = os.getpid()
    thread = threading.get_ident()
    for _ in range(2):
        if thread not in _schedstats:
            _schedstats[thread] = _open_schedstat()
        fd = _schedstats[thread]
        if fd is None:
            return 0.0
        try:
            return int(os.pread(fd, 64, 0).split()[1]) * 1e-9
        except (OSError, ValueError, IndexError):  # a thread gone, whose ident this one was given
            os.close(fd)
            del _schedstats[thread]
    return 0.0


def process_age() -> float:
    """Seconds since this process started (Linux); 0 where that cannot be read."""
    try:
        with open("/proc/self/stat") as stat, open("/proc/uptime") as uptime:
            started_ticks = int(stat.read().rsplit(")", 1)[1].split()[19])
            return float(uptime.read().split()[0]) - started_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def turn_clock() -> tuple[float, float]:
    """A turn's start, for `turn_seconds`: the time, then this thread's waits for a processor so far."""
    return time.perf_counter(), waited_for_cpu()


def turn_seconds(start: tuple[float, float]) -> float:
    """Seconds since `start` (`turn_clock`), less this thread's waits for a processor meanwhile;
    never negative. The waits are read after the time at the start and before it at the end, so a
    wait between two readings is charged to the turn, never taken off a time that does not hold it
    (read the other way, a turn on a busy machine came out negative)."""
    waited = waited_for_cpu()
    return max(time.perf_counter() - start[0] - (waited - start[1]), 0.0)
