"""This machine's processes as the tests look at them, through Linux's /proc: whether one runs, and
which hold a test's marker (so that a test finds every process it started, however far it went)."""

from __future__ import annotations

import os
from pathlib import Path


def alive(pid: int) -> bool:
    """Is `pid` a running process (a zombie is dead: it only waits for its parent)?"""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] not in "ZX"


def holding(marker: str, where: str = "environ") -> list[int]:
    """The running processes but this one whose /proc/PID/`where` (environ, cmdline) holds `marker`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if marker.encode() in (entry / where).read_bytes() and alive(int(entry.name)):
                found.append(int(entry.name))
        except OSError:
            continue
    return found
