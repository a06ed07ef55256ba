"""The Ray backend on a local Ray instance: the same games as the process pool (skipped without Ray)."""

import pytest

from arena.cli import main
from arena.play.store import Store

pytest.importorskip("ray")


def test_ray_plays_the_same_games_as_one_process(tmp_path):
    args = ["match", "random", "boss", "--pairs", "3", "--seed", "5", "--turn-ms", "1000", "--quiet"]
    assert main([*args, "--workers", "1", "--db", str(tmp_path / "local.sqlite")]) == 0
    assert (
        main(
            [
                *args,
                "--backend",
                "ray",
                "--workers",
                "2",
                "--games-per-worker",
                "2",
                "--db",
                str(tmp_path / "ray.sqlite"),
            ]
        )
        == 0
    )

    def games(name):
        return sorted(
            (g["unit"], g["seating"], g["seed"], tuple(g["ranks"]), g["data"]["moves"])
            for g in Store.open(tmp_path / name).games()
        )

    assert games("ray.sqlite") == games("local.sqlite")
    assert len(games("ray.sqlite")) == 6


def test_ray_plays_an_external_referee_s_games_where_they_were_given(tmp_path, monkeypatch):
    """A game of the tests' own Pebbles through its relay referee, whose command and bots name
    files relative to the folder the command was given in: Ray's workers run elsewhere, and play
    the same games as one process."""
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    monkeypatch.chdir(root)
    bots = "tests/games/pebbles/bots"
    args = ["match", f"python {bots}/greedy.py", f"python {bots}/first.py", "--pairs", "2", "--seed", "4", "--quiet"]
    args += ["--referee", f"{sys.executable} -m tests.games.pebbles.relay_referee", "--protocol", "relay"]
    assert main([*args, "--workers", "1", "--db", str(tmp_path / "local.sqlite")]) == 0
    assert main([*args, "--backend", "ray", "--workers", "2", "--db", str(tmp_path / "ray.sqlite")]) == 0

    def games(name):
        return sorted(
            (g["unit"], g["seating"], g["seed"], tuple(g["ranks"])) for g in Store.open(tmp_path / name).games()
        )

    assert games("ray.sqlite") == games("local.sqlite") and len(games("ray.sqlite")) == 4
