"""What the tests of Pebbles' external referees share: the referees' commands, its bots as players,
the game played in-process as the oracle of their results, and the check that a game left no
process behind."""

from __future__ import annotations

import os
import shlex
import sys
import time
import uuid
from pathlib import Path

import pytest

from arena.games.base import Player, ranks_from_scores
from arena.games.relay import RelayGame
from arena.games.runner import RefereeGame
from arena.games.sdk import SdkGame
from arena.play.store import Store
from tests.games.pebbles import rules
from tests.processes import holding

HERE = Path(__file__).parent
ROOT = HERE.resolve().parents[2]  # the checkout's: the cli and json referees run from it, as modules
BOTS = HERE / "bots"
SDK_REFEREE = [sys.executable, str(HERE / "sdk_referee.py")]
RELAY_REFEREE = [sys.executable, str(HERE / "relay_referee.py")]
PYTHON = shlex.quote(sys.executable)
CLI_REFEREE = f"{PYTHON} -m tests.games.pebbles.cli_referee"
JSON_REFEREE = f"{PYTHON} -m tests.games.pebbles.json_referee"

DRIVEN = {"sdk": (SdkGame, SDK_REFEREE), "relay": (RelayGame, RELAY_REFEREE)}  # the referees the arena drives


FIRST_TURN_MS = 3000  # a bot's start on a busy machine is no test's subject


def driven_game(protocol: str, *flags: str, players: int = 2, **options) -> RefereeGame:
    """Pebbles refereed in `protocol` (sdk or relay), the referee given `flags`."""
    kind, referee = DRIVEN[protocol]
    options = {"reply_s": 10, "first_turn_ms": FIRST_TURN_MS, "game_s": 60} | options
    return kind(referee + list(flags), players, **options)


# What each well-behaved bot plays (the oracle: bots/NAME.py play the same).
CHOICES = {
    "greedy": lambda values: values.index(max(values)),
    "chatty": lambda values: values.index(max(values)),
    "first": lambda values: 0,
    "worst": lambda values: values.index(min(values)),
}


def player(name: str, *args: str) -> Player:
    """Bot `name` of bots/ as a command-line player (`hostile`'s misbehaviour in `args`)."""
    command = shlex.join([sys.executable, str(BOTS / f"{name}.py"), *args])
    return Player(label=" ".join([name, *args]), spec=command, kind="command", target=command, version="test")


def sleeper() -> Player:
    """A player that outlives its input's end: only a kill ends it."""
    command = shlex.join([sys.executable, "-c", "import time; time.sleep(60)"])
    return Player("sleeper", command, "command", command, "test")


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


def until(check, timeout: float = 90.0, what: str = "", every: float = 0.05):
    """What `check()` gives once it is true, asked every `every` seconds; AssertionError after
    `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(every)
    raise AssertionError(f"timed out waiting for {what or check}")


def stored(db: Path) -> tuple[dict, list[dict], list[dict]]:
    """A run's database as the tests read it: its configuration, its games and its failures."""
    store = Store.open(db, readonly=True)
    try:
        return store.config, store.games(), store.failures()
    finally:
        store.close()


def games_stored(db: Path) -> int:
    """How many games a run's database holds now: 0 while it is not made yet or being written (a run
    that plays in another process)."""
    if not db.exists():
        return 0
    try:
        store = Store.open(db, readonly=True)
    except Exception:  # noqa: BLE001 - not created yet
        return 0
    try:
        return len(store.games())
    except Exception:  # noqa: BLE001 - being written
        return 0
    finally:
        store.close()
