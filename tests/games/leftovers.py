"""Processes a game left behind: every process a test's games start inherits a marker in its
environment (set on the test process's), and none may hold it, alive, once the game is over."""

from __future__ import annotations

import os
import time
import uuid
from pathlib import Path

MARKER_VARIABLE = "CALDERA_TEST_GAME_MARKER"


def mark(monkeypatch) -> bytes:
    """Set a fresh marker for the processes started from now on; the bytes to look for."""
    value = uuid.uuid4().hex
    monkeypatch.setenv(MARKER_VARIABLE, value)
    return f"{MARKER_VARIABLE}={value}".encode()


def alive(marker: bytes, wait: float = 2.0) -> list[int]:
    """The live processes holding `marker`, after giving the killed up to `wait` seconds to go."""
    deadline = time.monotonic() + wait
    while True:
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit() or int(entry.name) == os.getpid():
                continue
            try:
                stat = (entry / "stat").read_bytes()
                holds = marker in (entry / "environ").read_bytes()
            except OSError:
                continue
            if holds and stat[stat.rindex(b")") + 2 :].split()[0] not in (b"Z", b"X"):
                found.append(int(entry.name))
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.05)
