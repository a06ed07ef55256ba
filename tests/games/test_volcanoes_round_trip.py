"""Our Volcanoes referee through its own protocol-(A) command line (`referee volcanoes -p1 -p2 -d
seed=N -l LOG`), run by the arena as an external referee, plays game for game what the arena's
in-process Volcanoes plays on the same seeds: the same winners, the same moves. The bots are seeded
pure-Python ones with a fixed search (`pure-mcts:iterations=N` in process; as processes they take
the arena's seed for the game from their environment, `referee/platform/bot_env.py`)."""

import sys
from pathlib import Path

import pytest

from arena.cli import main
from arena.play.store import Store

ROOT = Path(__file__).resolve().parents[2]
ITERATIONS = 40


def _games(db):
    store = Store.open(db, readonly=True)
    try:
        return {(g["unit"], g["seating"]): g for g in store.games()}
    finally:
        store.close()


def _moves(summaries):
    """The moves of a game from the SDK log's summaries (`$0 plays S22`, `growth`)."""
    return " ".join("GROW" if line == "growth" else line.split()[-1] for line in summaries)


def test_the_arena_through_referee_volcanoes_plays_the_in_process_games(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    common = ["--pairs", "3", "--seed", "9", "--workers", "1", "--quiet"]
    inside = tmp_path / "in.sqlite"
    outside = tmp_path / "out.sqlite"
    assert main(["match", f"p=pure-mcts:iterations={ITERATIONS}", "r=pure-random", *common, "--db", str(inside)]) == 0
    players = [
        f"p={sys.executable} -m bots.volcanoes.pure.mcts --iterations {ITERATIONS}",
        f"r={sys.executable} -m bots.volcanoes.pure.random",
    ]
    referee = ["--referee", f"{sys.executable} -m referee.cli volcanoes", "--protocol", "cli"]
    assert main(["match", *players, *referee, *common, "--db", str(outside)]) == 0
    ours, theirs = _games(inside), _games(outside)
    assert len(ours) == len(theirs) == 6
    for key, game in ours.items():
        other = theirs[key]
        assert (other["seats"], other["seed"], other["ranks"]) == (game["seats"], game["seed"], game["ranks"])
        assert _moves(other["data"]["summaries"]) == game["data"]["moves"], key
    if len({g["data"]["moves"] for g in ours.values()}) < 6:
        pytest.fail("the games are not all different: the comparison would prove little")
