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


def test_a_local_ray_is_started_whatever_ray_address_says(tmp_path, monkeypatch):
    """With Ray's usual RAY_ADDRESS exported (a cluster's, or nothing there), `--backend ray` without
    --ray-address was refused: 'When connecting to an existing cluster, num_cpus and num_gpus must
    not be provided'. Without --ray-address, the docs say, it starts a Ray on this machine."""
    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.9:6379")
    args = ["match", "random", "greedy", "--pairs", "1", "--backend", "ray", "--workers", "1", "--quiet"]
    assert main([*args, "--turn-ms", "1000", "--db", str(tmp_path / "r.sqlite")]) == 0
    assert len(Store.open(tmp_path / "r.sqlite").games()) == 2


def test_sigterm_stops_a_run_on_ray_as_ctrl_c_does(tmp_path):
    """ray.init put its own SIGTERM handler in place of the command's: `timeout` or a scheduler's
    SIGTERM ended a run with Ray's crash dump and status 15, no word of the games stored."""
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    from tests.games.pebbles.harness import games_stored

    db = tmp_path / "r.sqlite"
    root = Path(__file__).resolve().parents[2]
    argv = ["match", "random", "greedy", "--pairs", "500", "--backend", "ray", "--workers", "1", "--db", str(db)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "arena.cli", *argv, "--quiet"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    try:
        deadline = time.monotonic() + 120
        while games_stored(db) < 2:
            assert time.monotonic() < deadline and proc.poll() is None, "no game was stored"
            time.sleep(0.2)
        proc.send_signal(signal.SIGTERM)
        err = proc.communicate(timeout=60)[1]
    finally:
        proc.kill()
    assert proc.returncode == 130, (proc.returncode, err[-2000:])
    assert "games are stored. Continue with:" in err and "SIGTERM received" not in err
    assert f"arena match --resume --db {db} --backend ray" in err  # (on the machines it played on)


def test_a_cluster_address_is_checked_at_once_and_never_ignored(capsys):
    """Nothing listening at --ray-address: Ray tried for more than 5 minutes, silent; an address
    without --backend ray was ignored and the games played here."""
    import time

    started = time.monotonic()
    assert main(["match", "random", "greedy", "--pairs", "1", "--ray-address", "127.0.0.1:1"]) == 2
    assert time.monotonic() - started < 30
    err = capsys.readouterr().err
    assert "cannot connect to the Ray cluster at 127.0.0.1:1 (Connection refused)" in err
    argv = ["match", "random", "greedy", "--pairs", "1", "--backend", "pool", "--ray-address", "127.0.0.1:1"]
    assert main(argv) == 2
    assert "--ray-address names a Ray cluster to play on: it goes with --backend ray" in capsys.readouterr().err
