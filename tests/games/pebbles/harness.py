"""What the tests of Pebbles' external referees share: its bots as players, the game played
in-process as the oracle of their results, and the check that a game left no process behind."""

from __future__ import annotations

import os
import sys
import time
import uuid
from pathlib import Path

import pytest

from arena.games.base import Player, ranks_from_scores
from tests.games.pebbles import rules
from tests.processes import holding

HERE = Path(__file__).parent
BOTS = HERE / "bots"
SDK_REFEREE = [sys.executable, str(HERE / "sdk_referee.py")]
RELAY_REFEREE = [sys.executable, str(HERE / "relay_referee.py")]

# What each well-behaved bot plays (the oracle: bots/NAME.py play the same).
CHOICES = {
    "greedy": lambda values: values.index(max(values)),
    "chatty": lambda values: values.index(max(values)),
    "first": lambda values: 0,
    "worst": lambda values: values.index(min(values)),
}


def player(name: str, *args: str) -> Player:
    """Bot `name` of bots/ as a command-line player."""
    command = " ".join([sys.executable, str(BOTS / f"{name}.py"), *args])
    return Player(label=" ".join([name, *args]), spec=command, kind="command", target=command, version="test")


def expected(seed: int, names: list[str]) -> tuple[list[int], list[int], int]:
    """(scores, ranks, turns) of well-behaved bots `names` on `seed`, played in-process."""
    state = rules.new_game(seed, len(names))
    while not state.over:
        assert rules.play(state, str(CHOICES[names[state.to_move]](state.pebbles))) is None
    scores = rules.final_scores(state)
    return scores, ranks_from_scores(scores), state.turn


@pytest.fixture
def leftovers(monkeypatch):
    """Marks every process the test starts (through its environment) and, after the test, checks
    that none is left alive: a function that says which are, waiting up to 2 s for them to go."""
    if not Path("/proc/self/environ").exists():
        pytest.skip("needs Linux's /proc")
    marker = f"PEBBLES_TEST_MARK={uuid.uuid4().hex}"
    monkeypatch.setenv(*marker.split("="))

    def left(seconds: float = 2.0) -> list[int]:
        deadline = time.monotonic() + seconds
        while (pids := holding(marker)) and time.monotonic() < deadline:
            time.sleep(0.05)
        return pids

    yield left
    pids = left()
    for pid in pids:
        os.kill(pid, 9)
    assert not pids, "processes left behind"
