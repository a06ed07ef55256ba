"""Fixtures for the IQ-Twist tests: the course's test vectors and the 108 recorded challenges."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1] / "data" / "iqtwist"


def _read_vectors() -> dict[str, list[list[str]]]:
    """test-vectors.txt as {section: rows}, a row being its '|'-separated fields."""
    sections: dict[str, list[list[str]]] = {}
    current = None
    for line in (DATA / "test-vectors.txt").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            current = line[1 : line.index("]")]
            sections[current] = []
        else:
            sections[current].append([field.strip() for field in line.split("|")])
    return sections


def _read_challenges() -> list[dict[str, str]]:
    rows = []
    for line in (DATA / "challenges.tsv").read_text().splitlines():
        if line and not line.startswith("#"):
            name, source, level, challenge, solution = line.split("\t")
            rows.append(dict(id=name, source=source, level=level, challenge=challenge, solution=solution))
    return rows


@pytest.fixture(scope="session")
def vectors() -> dict[str, list[list[str]]]:
    return _read_vectors()


@pytest.fixture(scope="session")
def good(vectors) -> list[str]:
    """GOOD_PLACEMENTS: ten solved games, 8 pieces then the pegs."""
    return [row[0] for row in vectors["GOOD_PLACEMENTS"]]


@pytest.fixture(scope="session")
def challenges() -> list[dict[str, str]]:
    return _read_challenges()
