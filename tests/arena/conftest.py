"""Fixtures for the arena tests: real runs played on this machine."""

from __future__ import annotations

import pytest

from arena.cli import main


@pytest.fixture(scope="session")
def play_match(tmp_path_factory):
    """A function: play a match between two players in this process (1000 ms a turn and 5000 ms the
    first, so that a busy machine forfeits nothing: a random bot once timed out at 1013 ms on its
    first turn during a whole test run) into a new database, and return its path."""

    def play(a: str, b: str, *, pairs: int, seed: int):
        db = tmp_path_factory.mktemp("match") / "match.sqlite"
        args = f"match {a} {b} --pairs {pairs} --seed {seed} --workers 1 --turn-ms 1000 --first-turn-ms 5000 --quiet".split()
        assert main([*args, "--db", str(db)]) == 0
        return db

    return play
