"""The versions `arena bench` compares: the working tree, a git revision of the project (extracted once
into the cache, as a `NAME@REV` player is) or a directory holding a copy of it; and the worker process
that measures one version (arena/bench/worker.py, run in that version's tree)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from arena.builds.revisions import SourceError, tree_at
from arena.errors import UsageError
from arena.project import PROJECT_ROOT


WORKER = Path(__file__).with_name("worker.py")  # the same for every version: see its docstring


class BenchError(UsageError):
    """A user's mistake (an unknown revision, a bot that does not answer): one line, exit 2."""


@dataclass(frozen=True)
class Version:
    label: str
    root: Path


def version(text: str) -> Version:
    """A directory holding a copy of the project, or a git revision of this project (extracted once
    into the arena's cache, with a warm numba cache, exactly as a `NAME@REV` player is)."""
    path = Path(text)
    if path.is_dir() and (path / "bots").is_dir():
        return Version(text, path.resolve())
    try:
        commit, tree = tree_at(PROJECT_ROOT, text)
    except SourceError as exc:
        raise BenchError(f"{text!r} is neither a project directory nor a git revision ({exc})") from None
    return Version(f"{text} ({commit[:12]})", tree)


class Worker:
    """arena/bench/worker.py running in one version's tree; asked for one figure at a time."""

    def __init__(self, v: Version, cpu: int | None = None):
        self.version = v
        boot = (
            f"import runpy, sys; sys.path.insert(0, {str(v.root)!r}); "
            f"runpy.run_path({str(WORKER)!r}, run_name='__main__')"
        )
        env = {**os.environ, "PYTHONPATH": str(v.root), "PYTHONHASHSEED": "0"}
        self._proc = subprocess.Popen(
            [sys.executable, "-c", boot], cwd=v.root, env=env, text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
        if cpu is not None:
            os.sched_setaffinity(self._proc.pid, {cpu})

    def measure(self, request: dict) -> tuple[float | None, str]:
        """(value, "") or (None, why this version has no such figure)."""
        self._proc.stdin.write(json.dumps(request) + "\n")
        self._proc.stdin.flush()
        line = self._proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the bench worker in {self.version.root} exited ({self._proc.wait()})")
        answer = json.loads(line)
        if "error" in answer:
            raise RuntimeError(f"measuring {request['figure']} in {self.version.label} failed:\n{answer['error']}")
        return answer.get("value"), answer.get("unavailable", "")

    def close(self) -> None:
        self._proc.stdin.close()
        self._proc.wait(timeout=30)
