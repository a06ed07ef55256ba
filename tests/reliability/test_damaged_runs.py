"""A run's database that is valid SQLite but holds what no run writes (moves no game has, a config
of the wrong shape): every command that reads it says so in one line, naming the file."""

from __future__ import annotations

import shutil
import sqlite3

import pytest

from tests.reliability.commands import one_line, run


@pytest.fixture
def damaged(arena_run, tmp_path):
    """A function: a copy of a real run with `sql` applied to it."""

    def make(sql: str):
        copy = tmp_path / "damaged.sqlite"
        shutil.copy(arena_run, copy)
        with sqlite3.connect(copy) as db:
            db.execute(sql)
        db.close()
        return copy

    return make


BAD_MOVES = {  # a Volcanoes game's moves are kept in its record's data
    "not a tile": "UPDATE games SET data = json_set(data, '$.moves', 'N01 Z99 GROW') WHERE id = 1",
    "illegal": "UPDATE games SET data = json_set(data, '$.moves', 'N01 N01 GROW') WHERE id = 1",
    "out of turn": "UPDATE games SET data = json_set(data, '$.moves', 'GROW') WHERE id = 1",
    "not text": "UPDATE games SET data = json_set(data, '$.moves', 7) WHERE id = 1",
}


@pytest.mark.parametrize("name", list(BAD_MOVES))
def test_analyse_names_a_damaged_game(damaged, name, tmp_path):
    db = damaged(BAD_MOVES[name])
    done = run("arena.cli", "analyse", "--db", str(db), "--player", "random", "--games", "all", "--quiet")
    one_line(done, "arena analyse", f"{db} is damaged: game 1")


@pytest.mark.parametrize("name", ["not a tile", "not text"])
def test_report_page_names_a_damaged_game(damaged, name, tmp_path):
    db = damaged(BAD_MOVES[name])
    done = run("arena.cli", "report", str(db), "-o", str(tmp_path / "page.html"))
    one_line(done, "arena report", f"{db} is damaged")


def test_report_says_a_config_of_the_wrong_shape_in_one_line(damaged):
    db = damaged("UPDATE run SET value = '[1, 2]' WHERE key = 'config'")
    one_line(run("arena.cli", "report", str(db)), "arena report", str(db))


@pytest.mark.parametrize("name", list(BAD_MOVES))
def test_replay_and_the_served_page_name_a_damaged_game(damaged, name, tmp_path):
    """`arena replay` ended in a traceback (ValueError, TypeError, AttributeError) and `arena serve`
    answered 500 with the traceback in its log, where `arena report` said it in one line."""
    from arena.play.store import StoreError
    from arena.web.serve import RunView

    db = damaged(BAD_MOVES[name])
    out = tmp_path / "out"
    one_line(run("arena.cli", "replay", str(db), "1", "-o", str(out)), "arena replay", f"{db} is damaged: game 1: ")
    assert not out.exists()
    with pytest.raises(StoreError, match=f"{db} is damaged: game 1: "):  # (answered 503, in JSON, as a damaged file)
        RunView(db).game_page(1, "/game/0/1")
