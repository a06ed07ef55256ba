"""Small things a user gives that went wrong: an sdk game parameter holding a line end (it injected
protocol frames), or naming the seed (every game played it while the run recorded others), a config file that is a device or a FIFO (`--config /dev/zero` filled memory, a FIFO
hung the command), labels holding terminal escapes (printed raw by `arena report` and `arena league
status`), and a report page on a full disk (it left its empty folder of game pages behind)."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from arena.games.sdk import SdkGame
from referee.platform.errors import UserError
from tests.reliability.commands import one_line, run

ESC = "\x1b]0;owned\x07\x1b[2J"  # a terminal's title set and its screen cleared


@pytest.mark.parametrize(
    "parameters",
    [{"x": "1\n[[GET_GAME_INFO] 0]"}, {"x": "1\r"}, {"a\nb": "1"}, {"a=b": "1"}],
    ids=["value-newline", "value-return", "key-newline", "key-equals"],
)
def test_an_sdk_parameter_is_one_line(parameters):
    with pytest.raises(UserError, match="a parameter is one line"):
        SdkGame(["referee"], 2, parameters=parameters)


def test_an_sdk_parameter_with_a_line_end_in_arena_toml_is_one_line(tmp_path):
    (tmp_path / "arena.toml").write_text(
        '[games.g]\nprotocol = "sdk"\ncommand = "true"\nparameters = { x = "1\\n[[GET_GAME_INFO] 0]" }\n'
    )
    done = run("arena.cli", "match", "a=true", "b=true", "--game", "g", "--quiet", cwd=tmp_path, timeout=60)
    one_line(done, "arena match", "a parameter is one line")


@pytest.mark.parametrize("key", ["seed", " seed ", "seed:x"])
def test_an_sdk_parameter_is_not_the_seed(key):
    # The referee reads each line as java.util.Properties does: all three keys are its `seed`.
    with pytest.raises(UserError, match="the arena gives each game its seed"):
        SdkGame(["referee"], 2, parameters={key: 5})
    SdkGame(["referee"], 2, parameters={"seeds": 5, "map": "seed=5"})  # (other keys, any value)


def test_a_seed_among_the_parameters_in_arena_toml_is_one_line(tmp_path):
    (tmp_path / "arena.toml").write_text('[games.g]\nprotocol = "sdk"\ncommand = "true"\nparameters = { seed = 5 }\n')
    done = run("arena.cli", "match", "a=true", "b=true", "--game", "g", "--quiet", cwd=tmp_path, timeout=60)
    one_line(done, "arena match", "'seed'", "--seed N", "--seeds FILE")


def test_a_config_file_that_is_a_device_is_one_line(tmp_path):
    done = run("arena.cli", "match", "a=true", "b=true", "--game", "g", "--config", "/dev/zero", cwd=tmp_path)
    one_line(done, "arena match", "/dev/zero is not a file")


def test_a_config_file_that_is_a_fifo_is_one_line_and_no_hang(tmp_path):
    fifo = tmp_path / "arena.toml"
    os.mkfifo(fifo)
    try:
        done = run("arena.cli", "match", "a=true", "b=true", "--game", "g", cwd=tmp_path, timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail("arena match waited for a writer of its config FIFO")
    one_line(done, "arena match", "is not a file")


def test_a_config_file_too_big_to_be_one_is_one_line(tmp_path):
    (tmp_path / "arena.toml").write_bytes(b"#" * (2 << 20))
    done = run("arena.cli", "match", "a=true", "b=true", "--game", "g", cwd=tmp_path)
    one_line(done, "arena match", "not a config file")


def _league_with_label(path, label: str) -> None:
    from arena.games.base import Player
    from arena.games.protocols import make as game_from
    from arena.play.store import Store

    game = game_from({"protocol": "cli", "name": "g", "command": "true", "players": 2})
    config = {"command": "league", "game": game.config(), "players": [label], "lineups": [], "units": None}
    config |= {"seatings": "balanced", "seed": 1, "sprt": None, "seeds": None, "mode": "uncertain"}
    store = Store.create(path, config, [])
    store.join_league(Player(label, "true", "command", "true", "test"))
    store.set_standing(label, "paused", f"paused by {label}")
    store.close()


def test_league_status_prints_no_terminal_escape(tmp_path):
    db = tmp_path / "league.sqlite"
    _league_with_label(db, f"evil{ESC}")
    done = run("arena.cli", "league", "status", "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert "evil" in done.stdout and "\x1b" not in done.stdout and "\x07" not in done.stdout
    assert "\\x1b" in done.stdout  # shown, escaped


def test_report_prints_no_terminal_escape(arena_run, tmp_path):
    import json
    import sqlite3

    db = tmp_path / "run.sqlite"
    shutil.copy(arena_run, db)
    evil = f"evil{ESC}"

    def renamed(value):  # the label `random` renamed, in a JSON value
        return json.dumps(json.loads(json.dumps(json.loads(value)).replace('"random"', json.dumps(evil))))

    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE players SET label = ? WHERE label = 'random'", (evil,))
        for row, seats, lineup in connection.execute("SELECT id, seats, lineup FROM games").fetchall():
            connection.execute(
                "UPDATE games SET seats = ?, lineup = ? WHERE id = ?", (renamed(seats), renamed(lineup), row)
            )
        (config,) = connection.execute("SELECT value FROM run WHERE key = 'config'").fetchone()
        connection.execute("UPDATE run SET value = ? WHERE key = 'config'", (renamed(config),))
    done = run("arena.cli", "report", str(db))
    assert done.returncode == 0, done.stderr
    assert "evil" in done.stdout and "\x1b" not in done.stdout and "\x07" not in done.stdout


def test_a_report_page_on_a_full_disk_leaves_no_folder_behind(arena_run, small_disk):
    small_disk.fill()
    page = small_disk.path / "r.html"
    one_line(run("arena.cli", "report", str(arena_run), "-o", str(page)), "arena report", "No space left")
    assert sorted(p.name for p in small_disk.path.iterdir()) == ["filler"]
