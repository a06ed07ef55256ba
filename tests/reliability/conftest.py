"""Fixtures of the reliability tests."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest


class Disk:
    """A small file system of its own (tmpfs) at `path`: `fill()` takes what space is left."""

    def __init__(self, path):
        self.path = path
        self.filler = path / "filler"

    def fill(self) -> None:
        fd = os.open(self.filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        try:
            while True:
                os.write(fd, b"\0" * 1024)
        except OSError:  # no space left on device
            pass
        finally:
            os.close(fd)

    def free(self) -> None:
        self.filler.unlink(missing_ok=True)

    def leftovers(self) -> list[str]:
        """Temporary files left in it (a write that failed must remove its own)."""
        return sorted(p.name for p in self.path.iterdir() if p.name.endswith(".part"))

    def filled_beside(self, name: str, text: str) -> Path:
        """The file `name`, holding `text`, then the disk filled: a command must leave it as it was."""
        path = self.path / name
        path.write_text(text)
        self.fill()
        return path

    def left_alone(self, path: Path, text: str) -> bool:
        """Whether `path` still holds `text`, with no temporary file left beside it."""
        return path.read_text() == text and self.leftovers() == []


@pytest.fixture
def small_disk(tmp_path):
    """A 256 KiB tmpfs, for full-disk tests: mounted where this test may (root, or CAP_SYS_ADMIN),
    else the test is skipped with the reason."""
    path = tmp_path / "disk"
    path.mkdir()
    try:
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(path)], capture_output=True)
        why = mounted.stderr.decode(errors="replace").strip() if mounted.returncode else None
    except OSError as exc:  # no mount command
        why = str(exc)
    if why:
        pytest.skip(f"cannot mount a small tmpfs to fill: {why}")
    try:
        yield Disk(path)
    finally:
        subprocess.run(["umount", "-l", str(path)], capture_output=True)


@pytest.fixture(scope="session")
def arena_run(tmp_path_factory):
    """The database of a small arena match (random against boss, one pair, in this process)."""
    from arena.cli import main

    db = tmp_path_factory.mktemp("run") / "run.sqlite"
    args = "match random boss --pairs 1 --seed 3 --workers 1 --turn-ms 1000 --quiet".split()
    assert main([*args, "--db", str(db)]) == 0
    return db
