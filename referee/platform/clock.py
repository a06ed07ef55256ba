"""Time as the operating system counts it for this process: how long it has lived, and how long
it has waited for a processor. Standard library only (the bundled submission imports it).

Why the second: a turn's time runs from the referee's write to the bot's answer, but either side can
spend part of it waiting for a processor (on a busy machine, up to 60 ms before a bot woken by its
turn read anything). Linux counts such waits per thread (/proc/thread-self/schedstat). So a bot
starts a turn's clock earlier by its wait before the read (`bots.volcanoes.bot.read_turns`), and the
referee does not charge a bot with its own wait after the answer came (`BotProcess.ask`).
"""

from __future__ import annotations

import os

_SCHEDSTATS = ("/proc/thread-self/schedstat", "/proc/self/schedstat")
_unread = object()
_schedstat: object | int | None = _unread  # a file descriptor, or None where there is none


def _open_schedstat() -> int | None:
    for path in _SCHEDSTATS:
        try:
            fd = os.open(path, os.O_RDONLY)
            int(os.pread(fd, 64, 0).split()[1])
            return fd
        except (OSError, ValueError, IndexError, AttributeError):  # (no pread off Unix)
            continue
    return None


def waited_for_cpu() -> float:
    """Seconds this thread has spent ready to run but waiting for a processor since it started
    (Linux); always 0.0 where the system does not say. About a microsecond a call."""
    global _schedstat
    if _schedstat is _unread:
        _schedstat = _open_schedstat()
    if _schedstat is None:
        return 0.0
    try:
        return int(os.pread(_schedstat, 64, 0).split()[1]) * 1e-9
    except (OSError, ValueError, IndexError):
        return 0.0


def process_age() -> float:
    """Seconds since this process started (Linux); 0 where that cannot be read."""
    try:
        with open("/proc/self/stat") as stat, open("/proc/uptime") as uptime:
            started_ticks = int(stat.read().rsplit(")", 1)[1].split()[19])
            return float(uptime.read().split()[0]) - started_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0
