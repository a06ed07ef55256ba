"""A process killed by a real-time signal (34 to 64 on Linux, nameless in Python's `signal.Signals`):
a bot so killed crashed, which is its loss, in every protocol and command; a referee so killed failed
the game. Neither is a traceback (a league adding such a bot died, and died again at every restart)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from arena.games.base import Player, RefereeFailure
from arena.games.cli import CliGame
from arena.games.json_game import JsonGame
from referee.platform.bot_errors import signal_name
from tests.games.pebbles.harness import CLI_REFEREE, JSON_REFEREE, ROOT, driven_game, player
from tests.reliability.commands import run

DIES = [sys.executable, str(Path(__file__).parent / "scripts" / "realtime_signal.py")]
NAME = "SIGRTMIN+6"


def dying(label: str = "dies") -> Player:
    command = shlex.join(DIES)
    return Player(label, command, "command", command, "test")


def test_a_real_time_signal_has_a_name():
    import signal

    assert signal_name(signal.SIGRTMIN + 6) == NAME
    assert signal_name(9) == "SIGKILL"
    assert signal_name(99) == "signal 99"


def test_referee_play_says_the_bot_died_of_it():
    done = run("referee.cli", "volcanoes", "play", shlex.join(DIES), "python -m bots.volcanoes.random")
    assert "Traceback" not in done.stderr, done.stderr
    assert NAME in done.stdout + done.stderr


def test_arena_match_records_the_bots_crash(tmp_path):
    db = tmp_path / "run.sqlite"
    args = ["match", f"dies={shlex.join(DIES)}", "random", "--pairs", "1", "--seed", "1", "--workers", "1"]
    done = run("arena.cli", *args, "--quiet", "--db", str(db), "--turn-ms", "1000", cwd=tmp_path)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    from arena.play.store import Store

    store = Store.open(db, readonly=True)
    games = store.games()
    store.close()
    assert len(games) == 2
    assert all("crash" in g["errors"] and NAME in g["detail"] for g in games), [g["detail"] for g in games]


@pytest.mark.parametrize("protocol", ["sdk", "relay"])
def test_a_driven_referee_killed_by_it_fails_the_game(protocol):
    game = driven_game(protocol)
    game.command = DIES
    with pytest.raises(RefereeFailure, match=r"SIGRTMIN\+6"):
        game.play(3, [player("greedy"), player("worst")], [0, 0])


@pytest.mark.parametrize(
    "game",
    [
        CliGame(name="pebbles", command=CLI_REFEREE, seats=2, cwd=str(ROOT)),
        JsonGame(name="pebbles", command=JSON_REFEREE + " --seed {seed} {players}", seats=2, cwd=str(ROOT)),
    ],
    ids=["cli", "json"],
)
def test_a_bot_killed_by_it_under_a_command_referee_is_the_bots_crash(game):
    outcome = game.play(3, [dying(), player("greedy")], [0, 0])
    assert outcome.errors[0] in ("crash", "invalid") and outcome.errors[1] is None
    assert outcome.ranks == [1, 0]
