"""Schedules and seeds; the store's record and its guards."""

import sqlite3

import pytest

from arena.games.volcanoes.game import VolcanoesGame
from arena.players import registry as arena_players
from arena.play.schedule import derive_seed, gauntlet, jobs, ladder, round_robin
from arena.stats.units import seatings
from arena.play.store import Store, StoreError


def resolve_all(texts):
    return arena_players.resolve_all(texts, VolcanoesGame())


def test_lineups():
    assert round_robin(["a", "b", "c"]) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert gauntlet("b", ["a", "b", "c"]) == [("b", "a"), ("b", "c")]
    assert round_robin(["a", "b", "c", "d"], 3) == [("a", "b", "c"), ("a", "b", "d"), ("a", "c", "d"), ("b", "c", "d")]
    assert gauntlet("a", ["a", "b", "c", "d"], 3) == [("a", "b", "c"), ("a", "b", "d"), ("a", "c", "d")]


def test_a_unit_is_one_seed_in_every_seating():
    assert seatings(("a", "b")) == [("a", "b"), ("b", "a")]
    assert seatings(("a", "b", "c"), "rotations") == [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")]
    assert len(seatings(("a", "b", "c"), "permutations")) == 6
    for n in (3, 4):  # balanced: each player in each seat, each of two before the other, equally often
        lineup = tuple("abcd"[:n])
        games = seatings(lineup)
        assert len(games) == 2 * n and len(set(games)) == 2 * n
        assert {sum(s[i] == p for s in games) for p in lineup for i in range(n)} == {2}
        assert {sum(s.index(p) < s.index(q) for s in games) for p in lineup for q in lineup if p != q} == {n}
    games = list(jobs([("a", "b", "c")], run_seed=7, units=range(2), how="rotations"))
    assert len(games) == 2 * 3 and len({g.seed for g in games}) == 2
    for job in games:  # every player in every seat once a unit, with its own seed for the unit
        assert sorted(job.seats) == ["a", "b", "c"]
        assert {label: s for label, s in zip(job.seats, job.bot_seeds, strict=True)} == {
            label: derive_seed(7, "bot", label, job.unit) for label in "abc"
        }


def test_each_pair_is_one_seed_played_with_seats_swapped():
    games = list(jobs([("a", "b"), ("a", "c")], run_seed=7, units=range(3)))
    assert len(games) == 3 * 2 * 2
    assert len({g.key for g in games}) == len(games)
    for first, second in zip(games[::2], games[1::2], strict=True):
        assert (first.lineup, first.unit) == (second.lineup, second.unit)
        assert first.seats == second.seats[::-1]
        assert first.seed == second.seed
        assert first.bot_seeds == second.bot_seeds[::-1]  # each bot keeps its own seed in the pair
    assert len({g.seed for g in games}) == 3  # unit k has one referee seed across lineups
    assert [g.key for g in games[:4]] == [
        (("a", "b"), 0, 0),
        (("a", "b"), 0, 1),
        (("a", "c"), 0, 0),
        (("a", "c"), 0, 1),
    ]


def test_seeds_depend_only_on_the_run_seed_and_the_place():
    again = list(jobs([("a", "b")], 7, range(5)))
    assert again == list(jobs([("a", "b")], 7, range(5)))
    assert again[4:] == list(jobs([("a", "b")], 7, range(2, 5)))  # a resumed run plays the same games
    assert again != list(jobs([("a", "b")], 8, range(5)))
    assert 0 <= derive_seed(7, "game", 0) < 2**31


def _record(unit, seating, ranks=(0, 1)):
    seats = ["random", "boss"] if seating == 0 else ["boss", "random"]
    return {
        "lineup": ["random", "boss"],
        "unit": unit,
        "seating": seating,
        "seats": seats,
        "versions": ["v1", "v2"],
        "seed": 1,
        "ranks": list(ranks),
        "scores": [None, None],
        "errors": [None, None],
        "reason": "connection",
        "turns": 30,
        "times": [[1.5, 2.0], [3.0]],
        "data": {"moves": "N01 GROW"},
    }


CONFIG = {"command": "match", "game": {"protocol": "volcanoes"}, "lineups": [["random", "boss"]], "units": 2, "seed": 1}


def test_store_round_trip_and_guards(tmp_path):
    players = resolve_all(["random", "boss"])
    store = Store.create(tmp_path / "run.sqlite", CONFIG, players)
    store.add_game(_record(0, 0))
    store.add_game(_record(0, 1, (1, 0)))
    with pytest.raises(sqlite3.IntegrityError):  # a game is never stored twice
        store.add_game(_record(0, 1))
    store.add_failure(
        {
            "lineup": ["random", "boss"],
            "unit": 1,
            "seating": 0,
            "seats": ["random", "boss"],
            "seed": 2,
            "kind": "referee",
            "detail": "it crashed",
        }
    )
    store.close()

    with pytest.raises(StoreError, match="exists"):
        Store.create(tmp_path / "run.sqlite", CONFIG, players)
    store = Store.open(tmp_path / "run.sqlite")
    store.lock()
    other = Store.open(tmp_path / "run.sqlite")
    with pytest.raises(StoreError, match="another arena process"):  # one process plays a run at a time
        other.lock()
    other.close()
    assert store.config == CONFIG
    assert store.players() == players
    assert store.done_keys() == {(("random", "boss"), 0, 0), (("random", "boss"), 0, 1)}  # not the failure
    games = store.games()
    assert [g["ranks"] for g in games] == [[0, 1], [1, 0]] and games[0]["times"] == [[1.5, 2.0], [3.0]]
    assert [(f["kind"], f["detail"], f["unit"]) for f in store.failures()] == [("referee", "it crashed", 1)]
    store.close()
    with pytest.raises(StoreError, match="no such database"):
        Store.open(tmp_path / "missing.sqlite")
    sqlite3.connect(tmp_path / "other.sqlite").close()
    with pytest.raises(StoreError, match="not an arena database"):
        Store.open(tmp_path / "other.sqlite")
    (tmp_path / "folder").mkdir()
    with pytest.raises(StoreError, match="is a folder"):
        Store.create(tmp_path / "folder", CONFIG, players)


SCHEMA_2_GAMES = """CREATE TABLE games (
    id INTEGER PRIMARY KEY, a TEXT NOT NULL, b TEXT NOT NULL, pair INTEGER NOT NULL, swap INTEGER NOT NULL,
    blue TEXT NOT NULL, orange TEXT NOT NULL, blue_version TEXT, orange_version TEXT,
    seed INTEGER NOT NULL, blue_seed INTEGER, orange_seed INTEGER,
    winner TEXT NOT NULL, reason TEXT NOT NULL, detail TEXT, turns INTEGER,
    blue_ms_mean REAL, blue_ms_max REAL, orange_ms_mean REAL, orange_ms_max REAL, blue_ms TEXT, orange_ms TEXT,
    blue_error TEXT, orange_error TEXT, moves TEXT, seconds REAL, worker TEXT, finished_at TEXT NOT NULL,
    UNIQUE (a, b, pair, swap))"""


@pytest.mark.parametrize("stop", [KeyboardInterrupt, sqlite3.OperationalError("database or disk is full")])
def test_a_run_stopped_while_its_file_is_made_leaves_nothing(tmp_path, monkeypatch, stop):
    """Killed while its database was made, a run left a half-made file that --resume refused as no
    database and a new run as existing: neither could go on. The file is made aside, then linked."""
    players = resolve_all(["random", "boss"])

    def stopped(self, player):
        raise stop

    monkeypatch.setattr(Store, "_add_player", stopped)
    with pytest.raises(KeyboardInterrupt if stop is KeyboardInterrupt else StoreError):
        Store.create(tmp_path / "run.sqlite", CONFIG, players)
    assert list(tmp_path.iterdir()) == []
    monkeypatch.undo()
    store = Store.create(tmp_path / "run.sqlite", CONFIG, players)  # a fresh start is free to begin
    store.close()
    assert [p.name for p in tmp_path.iterdir()] == ["run.sqlite"]
    with pytest.raises(StoreError, match="exists: resume it with --resume"):
        Store.create(tmp_path / "run.sqlite", CONFIG, players)
    Store.open(tmp_path / "run.sqlite").close()


@pytest.mark.parametrize(
    "content",
    [b"import sys\nprint('RANDOM')\n", b"", b"SQLite format 3\x00" + b"\xff" * 84],
    ids=["a bot's file", "empty", "damaged"],
)
def test_a_new_run_where_a_file_that_is_no_run_is_says_so_not_to_resume_it(tmp_path, content):
    """`arena match A B --db binbot.py` (a bot's file) was told `binbot.py exists: resume it with
    --resume`, and --resume then said it was no database: going on is for a run's file alone."""
    path = tmp_path / "binbot.py"
    path.write_bytes(content)
    with pytest.raises(StoreError, match=r"binbot.py is not an arena database.*; choose another --db$") as refused:
        Store.create(path, CONFIG, resolve_all(["random", "boss"]))
    assert "resume" not in str(refused.value)
    assert path.read_bytes() == content and [p.name for p in tmp_path.iterdir()] == ["binbot.py"]


def test_a_volcanoes_run_of_schema_2_is_read_as_today_s_records_but_not_resumed(tmp_path):
    """Before any game could be played, runs were Volcanoes' alone, blue and orange: such a file
    reads as today's records (its report is rebuilt), and refuses to be played on."""
    players = resolve_all(["random", "boss"])
    store = Store.create(tmp_path / "old.sqlite", CONFIG, players)
    store.close()
    db = sqlite3.connect(tmp_path / "old.sqlite")
    db.execute("DROP TABLE games")
    db.execute(SCHEMA_2_GAMES)
    db.execute(
        "INSERT INTO games (a, b, pair, swap, blue, orange, blue_version, orange_version, seed, blue_seed, "
        "orange_seed, winner, reason, detail, turns, blue_ms, orange_ms, blue_error, orange_error, moves, "
        "finished_at) VALUES ('random', 'boss', 0, 1, 'boss', 'random', 'v2', 'v1', 5, 6, 7, 'orange', "
        "'timeout', 'blue no answer in time', 3, '1.0 2.0', '3.5', 'timeout', NULL, 'N01 GROW', 'now')"
    )
    old = {"command": "match", "pairings": [["random", "boss"]], "pairs": 1, "seed": 1, "settings": {"turn_ms": 100.0}}
    db.execute("UPDATE run SET value = ? WHERE key = 'config'", (__import__("json").dumps(old),))
    db.execute("UPDATE run SET value = '2' WHERE key = 'schema'")
    db.commit()
    db.close()
    store = Store.open(tmp_path / "old.sqlite", readonly=True)
    (game,) = store.games()
    assert store.config["lineups"] == [["random", "boss"]] and store.config["units"] == 1
    assert store.config["game"] == {"protocol": "volcanoes", "turn_ms": 100.0}
    assert (game["lineup"], game["unit"], game["seating"], game["seats"]) == (
        ["random", "boss"],
        0,
        1,
        ["boss", "random"],
    )
    assert (game["ranks"], game["errors"], game["times"]) == ([1, 0], ["timeout", None], [[1.0, 2.0], [3.5]])
    assert game["data"] == {"moves": "N01 GROW"}
    store.close()
    with pytest.raises(StoreError, match="older arena"):
        Store.open(tmp_path / "old.sqlite")


def test_tuning_iterations_are_stored_as_planned_then_finished(tmp_path):
    config = {"command": "tune", "seed": 1, "game": {"protocol": "volcanoes"}}
    store = Store.create(tmp_path / "t.sqlite", config, resolve_all(["random"]))
    store.add_iteration(1, theta={"c": 0.2}, delta={"c": -1}, c={"c": 0.05}, plus={"c": 0.15}, minus={"c": 0.25})
    (row,) = store.iterations()
    assert (row["plus"], row["minus"], row["net"], row["after"]) == ({"c": 0.15}, {"c": 0.25}, None, None)
    store.finish_iteration(1, -3, {"c": 0.2000000000000001})
    (row,) = store.iterations()
    assert (row["net"], row["after"]) == (-3, {"c": 0.2000000000000001}) and row["finished_at"]
    with pytest.raises(sqlite3.IntegrityError):  # an iteration is planned once
        store.add_iteration(1, theta={}, delta={}, c={}, plus={}, minus={})
    store.close()


def test_a_ladder_pairs_each_player_with_the_next_ones():
    assert ladder(["a", "b", "c", "d"], 2) == [("a", "b"), ("a", "c"), ("b", "c"), ("b", "d"), ("c", "d")]
    assert ladder(["a", "b", "c"], 1) == [("a", "b"), ("b", "c")]
    assert ladder(["a", "b", "c"], 5) == round_robin(["a", "b", "c"])


def test_the_default_tournament_is_the_ladder(monkeypatch):
    from arena.cli import main
    from arena.play import runs

    seen = {}

    def play(command, specs, units, options, game, lineups, sprt=None, exact=False):
        seen.update(players=specs, pairs=units, pairings=lineups(specs, 2))
        return 0

    monkeypatch.setattr(runs, "play", play)
    assert main(["tournament"]) == 0
    ladder_order = ["mcts", "alphabeta", "uct", "pure-mcts", "greedy", "boss", "random"]
    assert seen == {"players": ladder_order, "pairs": runs.LADDER_PAIRS, "pairings": ladder(ladder_order, 2)}
    assert main(["tournament", "random", "boss", "greedy"]) == 0  # players named: a round robin
    assert seen["pairings"] == round_robin(["random", "boss", "greedy"]) and seen["pairs"] is None


def test_a_run_file_is_made_where_the_file_system_has_no_hard_links(tmp_path, monkeypatch):
    import os

    def no_links(*args):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    Store.create(tmp_path / "run.sqlite", CONFIG, resolve_all(["random", "boss"])).close()
    assert [p.name for p in tmp_path.iterdir()] == ["run.sqlite"]
    Store.open(tmp_path / "run.sqlite").close()
    with pytest.raises(StoreError, match="exists: resume it with --resume"):
        Store.create(tmp_path / "run.sqlite", CONFIG, resolve_all(["random", "boss"]))
