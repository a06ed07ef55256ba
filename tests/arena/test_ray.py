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
