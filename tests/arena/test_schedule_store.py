"""Schedules and seeds; the store's record and its guards."""

import sqlite3

import pytest

from arena.play.players import resolve_all
from arena.play.schedule import derive_seed, gauntlet, jobs, ladder, round_robin
from arena.play.store import Store, StoreError


def test_pairings():
    assert round_robin(["a", "b", "c"]) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert gauntlet("b", ["a", "b", "c"]) == [("b", "a"), ("b", "c")]


def test_each_pair_is_one_seed_played_with_seats_swapped():
    games = list(jobs([("a", "b"), ("a", "c")], run_seed=7, pairs=range(3)))
    assert len(games) == 3 * 2 * 2
    assert len({g.key for g in games}) == len(games)
    for first, second in zip(games[::2], games[1::2], strict=True):
        assert (first.a, first.b, first.pair) == (second.a, second.b, second.pair)
        assert (first.blue, first.orange) == (second.orange, second.blue)
        assert first.seed == second.seed
        assert first.blue_seed == second.orange_seed  # each bot keeps its own seed in the pair
    assert len({g.seed for g in games}) == 3  # pair k has one referee seed across pairings
    assert [g.key for g in games[:4]] == [("a", "b", 0, 0), ("a", "b", 0, 1), ("a", "c", 0, 0), ("a", "c", 0, 1)]


def test_seeds_depend_only_on_the_run_seed_and_the_place():
    again = list(jobs([("a", "b")], 7, range(5)))
    assert again == list(jobs([("a", "b")], 7, range(5)))
    assert again[4:] == list(jobs([("a", "b")], 7, range(2, 5)))  # a resumed run plays the same games
    assert again != list(jobs([("a", "b")], 8, range(5)))
    assert 0 <= derive_seed(7, "game", 0) < 2**31


def _record(pair, swap, winner="blue"):
    return {
        "a": "random",
        "b": "boss",
        "pair": pair,
        "swap": swap,
        "blue": "random",
        "orange": "boss",
        "seed": 1,
        "winner": winner,
        "reason": "connection",
        "turns": 30,
        "moves": "N01 GROW",
    }


def test_store_round_trip_and_guards(tmp_path):
    players = resolve_all(["random", "boss"])
    config = {"command": "match", "pairings": [["random", "boss"]], "pairs": 2, "seed": 1}
    store = Store.create(tmp_path / "run.sqlite", config, players)
    store.add_game(_record(0, 0))
    store.add_game(_record(0, 1, "orange"))
    with pytest.raises(sqlite3.IntegrityError):  # a game is never stored twice
        store.add_game(_record(0, 1))
    store.close()

    with pytest.raises(StoreError, match="exists"):
        Store.create(tmp_path / "run.sqlite", config, players)
    store = Store.open(tmp_path / "run.sqlite")
    store.lock()
    other = Store.open(tmp_path / "run.sqlite")
    with pytest.raises(StoreError, match="another arena process"):  # one process plays a run at a time
        other.lock()
    other.close()
    assert store.config == config
    assert store.players() == players
    assert store.done_keys() == {("random", "boss", 0, 0), ("random", "boss", 0, 1)}
    assert [g["winner"] for g in store.games()] == ["blue", "orange"]
    store.close()
    with pytest.raises(StoreError, match="no such database"):
        Store.open(tmp_path / "missing.sqlite")
    sqlite3.connect(tmp_path / "other.sqlite").close()
    with pytest.raises(StoreError, match="not an arena database"):
        Store.open(tmp_path / "other.sqlite")


def test_a_file_of_schema_1_is_read_and_played_on(tmp_path):
    """Schema 2 added the tuning iterations' table: a file written before it reads as it did, and a run
    resumed on it gets the table."""
    players = resolve_all(["random", "boss"])
    config = {"command": "match", "pairings": [["random", "boss"]], "pairs": 2, "seed": 1}
    store = Store.create(tmp_path / "old.sqlite", config, players)
    store.add_game(_record(0, 0))
    store.close()
    db = sqlite3.connect(tmp_path / "old.sqlite")
    db.execute("DROP TABLE tune_iterations")
    db.execute("UPDATE run SET value = '1' WHERE key = 'schema'")
    db.commit()
    db.close()
    store = Store.open(tmp_path / "old.sqlite", readonly=True)
    assert store.get("schema") == 1 and len(store.games()) == 1
    store.close()
    store = Store.open(tmp_path / "old.sqlite")
    store.add_game(_record(0, 1))
    assert store.iterations() == [] and len(store.games()) == 2
    store.close()


def test_tuning_iterations_are_stored_as_planned_then_finished(tmp_path):
    store = Store.create(tmp_path / "t.sqlite", {"command": "tune", "seed": 1}, resolve_all(["random"]))
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
    import arena.cli as cli

    seen = {}

    def play(args, command, make_pairings, sprt=None):
        seen.update(players=args.players, pairs=args.pairs, pairings=make_pairings(args.players))
        return 0

    monkeypatch.setattr(cli, "_play", play)
    assert cli.main(["tournament"]) == 0
    ladder_order = ["mcts", "alphabeta", "uct", "pure-mcts", "greedy", "boss", "random"]
    assert seen == {"players": ladder_order, "pairs": cli.LADDER_PAIRS, "pairings": ladder(ladder_order, 2)}
    assert cli.main(["tournament", "random", "boss", "greedy"]) == 0  # players named: a round robin
    assert seen["pairings"] == round_robin(["random", "boss", "greedy"]) and seen["pairs"] is None
