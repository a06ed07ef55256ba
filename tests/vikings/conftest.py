"""Fixtures for the Vikings tests: the course's recorded data (tests/data/vikings/: the 60 objectives
and the unit-test vectors), and running `referee vikings ...` in-process."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

import referee.cli

DATA = Path(__file__).resolve().parents[1] / "data" / "vikings"


@dataclass(frozen=True)
class OfficialObjective:
    index: int
    level: str
    board: str
    target: str
    min_moves: int
    bfs_solution: str
    official_solution: str  # '-' absent, '' the course's "no solution"
    official_status: str

    @property
    def line(self) -> str:
        return f"{self.board} {self.target}"


def _read_objectives() -> list[OfficialObjective]:
    rows = []
    for line in (DATA / "objectives.tsv").read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        index, level, board, target, moves, bfs, official, status = line.split("\t")
        official = "" if official == "<empty>" else official
        rows.append(OfficialObjective(int(index), level, board, target, int(moves), bfs, official, status))
    return rows


def _read_vectors() -> dict[str, list[list[str]]]:
    """test-vectors.txt as {section: rows}, each row its `|`-separated fields, comments removed."""
    sections: dict[str, list[list[str]]] = {}
    current = None
    for raw in (DATA / "test-vectors.txt").read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), [])
        else:
            current.append([field.strip() for field in line.split("|")])
    return sections


def _run_cli(*argv: str) -> int:
    """`referee ...` in this process; its exit status."""
    return referee.cli.main(list(argv))


@pytest.fixture(scope="session")
def official() -> list[OfficialObjective]:
    """The 60 official objectives, in order."""
    return _read_objectives()


@pytest.fixture(scope="session")
def vectors() -> dict[str, list[list[str]]]:
    return _read_vectors()


@pytest.fixture(scope="session")
def data_dir() -> Path:
    return DATA


@pytest.fixture
def run_cli():
    return _run_cli
