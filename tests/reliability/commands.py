"""What the reliability tests share: running a command of the project as a user does, and what a
user's mistake must look like."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(module: str, *args: str, cwd=None, input=None, env=None, timeout=120) -> subprocess.CompletedProcess:
    """`python -m MODULE ARGS...` from this checkout, in `cwd` (default the checkout), as a user runs
    it; `input` feeds stdin (text), `env` adds variables."""
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        capture_output=True,
        text=True,
        input=input,
        timeout=timeout,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        cwd=cwd or ROOT,
    )


def one_line(done: subprocess.CompletedProcess, prog: str, *words: str) -> str:
    """Assert a user's mistake: exit status 2, no traceback, one line on stderr, `PROG: ...` naming
    every word of `words`; return that line."""
    err = done.stderr
    assert done.returncode == 2, (done.returncode, err)
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{prog}: "), err
    for word in words:
        assert word in lines[0], (word, err)
    return lines[0]


class _Random:
    """A seat that answers RANDOM at once (an in-process player for making replays)."""

    def ask(self, lines, timeout):
        return "RANDOM", 0.001

    def take_stderr(self):
        return ""

    def close(self):
        pass


def a_replay(seed: int = 1) -> dict:
    """The replay of a game between two RANDOM players, as `referee volcanoes play --replay` writes it."""
    from referee.volcanoes.match import play_game

    return play_game(_Random(), _Random(), seed).replay({"blue": "random", "orange": "random"})
