"""This machine's processes as the tests look at them, through Linux's /proc: whether one runs, and
which hold a test's marker (so that a test finds every process it started, however far it went)."""

from __future__ import annotations

import os
import platform
import signal
import struct
import time
from pathlib import Path


def alive(pid: int) -> bool:
    """Is `pid` a running process (a zombie is dead: it only waits for its parent)?"""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] not in "ZX"


def holding(marker: str, where: str = "environ") -> list[int]:
    """The running processes but this one whose /proc/PID/`where` (environ, cmdline) holds `marker`,
    looked at newest first, the next pids too: a fork chain's processes live microseconds each, and
    a look in pid order at a list made first all but never sees one (its newest is gone before its
    turn comes, and its child was born after the list); newest first, it mostly does."""
    listed = [int(name) for name in os.listdir("/proc") if name.isdigit()]
    try:  # newest by the order the kernel gave pids out: past pid_max's wrap, the lowest are newest
        last, top = (int(Path(f"/proc/sys/kernel/{name}").read_text()) for name in ("ns_last_pid", "pid_max"))
    except (OSError, ValueError):
        last, top = max(listed, default=0), 1 << 22
    found = []
    for pid in [*range(last + 64, last, -1), *sorted(listed, key=lambda pid: (last - pid) % top)]:
        if pid == os.getpid():
            continue
        try:
            if marker.encode() in Path(f"/proc/{pid}/{where}").read_bytes() and alive(pid):
                found.append(pid)
        except OSError:
            continue
    return found


def lingering(marker: str, where: str = "environ", seconds: float = 1.0) -> list[int]:
    """Every process `holding` `marker` that some look, again and again for `seconds`, saw: one look
    can miss a fork chain; a second of them does not."""
    seen: set[int] = set()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        seen.update(holding(marker, where))
        time.sleep(0.01)
    return sorted(seen)


def kill_holding(marker: str, where: str = "environ", seconds: float = 5.0) -> None:
    """A test's own cleanup, should a process have escaped: every process `holding` `marker` stopped
    first (a chain stopped cannot fork again), then killed, until none is left or `seconds` pass."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        pids = holding(marker, where)
        if not pids:
            return
        for sig in (signal.SIGSTOP, signal.SIGKILL):
            for pid in pids:
                try:
                    os.kill(pid, sig)
                except OSError:
                    pass
        time.sleep(0.02)


def descendants(root: int) -> list[int]:
    """The processes descending from `root` (children first), as /proc tells their parents now."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        children.setdefault(int(stat[stat.rindex(")") + 2 :].split()[1]), []).append(int(entry))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def foreign_program(path: Path) -> Path:
    """An executable file at `path` that is a program for another processor than this machine's (the
    header of an ELF program for ARM 64-bit, or for x86-64 on an ARM machine): what a build made on
    another machine is to this one."""
    arm = platform.machine().lower() in ("aarch64", "arm64")
    machine = 62 if arm else 183  # ELF's numbers for x86-64 and AArch64
    header = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8) + struct.pack("<HHI", 2, machine, 1)
    path.write_bytes(header + bytes(64 - len(header)))
    path.chmod(0o755)
    return path


def says_where_a_reader_sleeps() -> bool:
    """Whether this system says where a thread sleeps (/proc/PID/task/TID/wchan), as the hint for a
    bot waiting on its input reads it: some kernels and sandboxes show 0 for every thread."""
    import subprocess

    from referee.platform.lateness import waits_on_a_pipe

    with subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL) as reader:
        try:
            deadline = time.monotonic() + 2
            while time.monotonic() < deadline:
                if waits_on_a_pipe(reader.pid):
                    return True
                time.sleep(0.02)
            return False
        finally:
            reader.kill()
