"""The league's parts on their own: matchmaking's rule, the live leaderboard against the text report
and the plain fit, data filters, exports, seed files, and a schema 3 file brought to schema 4."""

from __future__ import annotations

import csv
import io
import json
import random
import re
import shutil
import sqlite3
import subprocess

import pytest

from arena.cli import league as cli_league
from arena.cli import main
from arena.games.base import Player
from arena.play import matchmaking
from arena.games.protocols import make as game_from
from arena.play.league import REMOVED, League, start_failure
from arena.play.schedule import jobs
from arena.play.seeds import read_seeds
from arena.play.store import SCHEMA_VERSION, Store
from arena.players import registry
from arena.players.registry import resolve
from arena.stats.board import Board, DataFilter, DataFilterError
from arena.stats.ratings import PairwiseResults, bradley_terry_fit
from arena.stats.tables import players_rows, ratings_rows
from arena.web import live_page


def plackett_luce(strengths: dict[str, float], seats: int, n: int, seed: int = 1) -> list[dict]:
    """n games of `seats` players drawn at random, ranked by Plackett-Luce on Elo strengths."""
    rng = random.Random(seed)
    games = []
    for k in range(n):
        table = rng.sample(sorted(strengths), seats)
        left, order = list(table), []
        while left:
            weights = [10 ** (strengths[p] / 400) for p in left]
            order.append(left.pop(rng.choices(range(len(left)), weights)[0]))
        games.append(
            {
                "seats": table,
                "ranks": [order.index(p) for p in table],
                "lineup": sorted(table),
                "unit": k,
                "seating": 0,
                "versions": ["v"] * seats,
                "errors": [None] * seats,
                "times": [[1.0, 2.0 + i, 3.0] for i in range(seats)],
                "data": {"tdata": {"size": k % 3}, "pdata": [{"depth": i} for i in range(seats)]},
            }
        )
    return games


@pytest.mark.parametrize("seats", [2, 3])
def test_the_fit_kept_game_by_game_is_the_plain_fit(seats):
    games = plackett_luce({"a": 200, "b": 0, "c": -100, "d": -100}, seats, 200)
    results = PairwiseResults(["a", "b", "c", "d"])
    for game in games[:120]:
        results.add(game)
    results.fit()  # a look half-way changes nothing
    for game in games[120:]:
        results.add(game)
    whole = bradley_terry_fit(games, ["a", "b", "c", "d"])
    assert results.fit().ratings == whole.ratings
    assert (results.fit().covariance == whole.covariance).all()
    elos = results.elos()
    assert max(abs(elos[i] - whole.ratings[label].elo) for i, label in enumerate(results.labels)) < 1e-3


def test_the_board_says_what_the_text_report_says():
    games = plackett_luce({"a": 200, "b": 0, "c": -150}, 2, 150)
    board = Board(expected=len(games))
    for game in games:
        board.add(game)
    rows = board.rows()
    text_rows, _, order = ratings_rows(games, ["a", "b", "c"])
    assert [r["label"] for r in rows] == order
    assert [f"{r['elo']:+.0f}" for r in rows] == [row[2] for row in text_rows]
    players, _ = players_rows(games, ["a", "b", "c"], order)
    assert [f"{r['wins']}-{r['draws']}-{r['losses']}" for r in rows] == [row[2] for row in players]
    assert rows[0]["data"] == {"pdata.depth": pytest.approx(0.5, abs=0.1), "tdata.size": pytest.approx(1, abs=0.2)}
    assert rows[0]["ms_median"] == 3.0 and rows[0]["first_turn_max"] == 1.0
    history = board.history_series(order)
    assert history["games"][-1] == len(games) and len(history["games"]) <= 101
    assert history["elo"]["a"][-1] == pytest.approx(rows[0]["elo"], abs=1e-3)


def test_a_board_of_some_players_or_some_data_rates_their_games_alone():
    games = plackett_luce({"a": 200, "b": 0, "c": -150}, 2, 150)
    some = Board(["a", "b"])
    small = Board(where=DataFilter("tdata.size < 1"))
    for game in games:
        some.add(game)
        small.add(game)
    assert [r["label"] for r in some.rows()] == ["a", "b"]
    assert some.count == sum(set(g["seats"]) == {"a", "b"} for g in games)
    assert small.count == sum(g["data"]["tdata"]["size"] == 0 for g in games)
    assert Board(where=DataFilter("pdata.depth = 1")).wants(games[0])
    for text in ("size > 1", "tdata.size ~ 3", "tdata.kind < big"):
        with pytest.raises(DataFilterError):
            DataFilter(text)


def test_a_board_of_no_player_is_empty():
    """A league whose players were all removed: its status and its page rate no one."""
    board = Board([])
    for game in plackett_luce({"a": 0, "b": 0}, 2, 5):
        board.add(game)
    assert board.rows() == [] and board.count == 0


@pytest.fixture(scope="module")
def a_match(tmp_path_factory):
    db = tmp_path_factory.mktemp("match") / "m.sqlite"
    assert main(["match", "random", "greedy", "--pairs", "1", "--workers", "1", "--db", str(db), "--quiet"]) == 0
    return db


@pytest.mark.parametrize("action", [["add", "x=random"], ["pause", "random"], ["status"], []])
def test_a_league_command_on_another_run_s_database_is_one_line(action, a_match, capsys):
    """Each ended in a traceback (the database read once closed), `status` in a table of no one."""
    capsys.readouterr()
    assert main(["league", *action, "--db", str(a_match)]) == 2
    assert capsys.readouterr().err.strip() == f"arena league: {a_match} holds a match, not a league"


def standing(strengths: dict[str, float], games: list[dict], **units) -> matchmaking.Standing:
    fit = bradley_terry_fit(games, list(strengths)) if games else None
    return matchmaking.Standing(active=list(strengths), seats=2, fit=fit, units=dict(units.get("units", {})))


def test_a_newcomer_plays_first_then_games_go_where_the_order_is_in_doubt():
    strengths = {"a": 400, "b": 0, "c": -10, "d": -400}
    games = [g for g in plackett_luce(strengths, 2, 400) if "e" not in g["seats"]]
    begun = {("a", "b"): 20, ("b", "c"): 20, ("c", "d"): 20, ("a", "c"): 20, ("b", "d"): 20}
    state = standing({**strengths, "e": 0}, games, units=begun)
    lineup = matchmaking.choose(state)
    assert "e" in lineup  # the newcomer at once
    assert set(lineup) & {"b", "c"}  # against those nearest the mean, where it starts
    state = standing(strengths, games, units=begun)
    assert matchmaking.choose(state) == ("b", "c")  # 10 Elo apart: the doubtful pair
    state.in_flight = {("b", "c"): 200}  # many units already on their way there
    assert matchmaking.choose(state) != ("b", "c")
    state = standing(strengths, games, units=begun)
    state.playable = lambda lineup: lineup != ("b", "c")  # their seeds used up
    assert matchmaking.choose(state) != ("b", "c")


def split_pairs(lineup: tuple[str, str], units: int, first: int = 0) -> list[dict]:
    """`units` seat-swapped pairs of two bots that play a seed the same way each time, equal: the
    first seat wins both games of every pair."""
    return [
        {"seats": list(seats), "ranks": [0, 1], "lineup": list(lineup), "unit": unit}
        for unit in range(first, first + units)
        for seats in (lineup, lineup[::-1])
    ]


def test_two_equal_deterministic_bots_settled_within_the_resolution_leave_the_games_to_open_pairs():
    """A league of a, b (the same commit) and c (stronger): a and b took 226 of 438 games, c over a
    +110 [-91, +311] after 8 games, while a vs b was settled at +0 [-11, +11] by their units; the fit,
    which counts games as independent, still gave a and b the widest doubt."""

    def c_ahead(x: str) -> list[dict]:  # four pairs against x: c wins the first twice, then one game of each
        return [
            {"seats": [x, "c"], "ranks": [1, 0], "lineup": [x, "c"], "unit": 0},
            {"seats": ["c", x], "ranks": [0, 1], "lineup": [x, "c"], "unit": 0},
            *split_pairs((x, "c"), 3, first=1),
        ]

    games = split_pairs(("a", "b"), 113) + [game for x in ("a", "b") for game in c_ahead(x)]
    state = standing({"a": 0, "b": 0, "c": 0}, games, units={("a", "b"): 113, ("a", "c"): 4, ("b", "c"): 4})
    state.unit_results = matchmaking.UnitResults(2)
    for game in games:
        state.unit_results.add(game)
    assert matchmaking.gap_doubt(state, "a", "b") <= 1.0  # within RESOLUTION of each other: settled
    assert matchmaking.gap_doubt(state, "c", "a") > 1.0
    assert "c" in matchmaking.choose(state)


def test_leader_mode_measures_the_newest_against_the_leader():
    strengths = {"a": 300, "b": 0, "c": -300, "new": 290}
    games = plackett_luce(strengths, 2, 600)
    begun = {tuple(sorted(p)): 10 for p in [("a", "b"), ("b", "c"), ("a", "c"), ("a", "new"), ("b", "new")]}
    state = standing(strengths, games, units=begun)
    state.lineup = lambda players: tuple(sorted(players))
    assert matchmaking.choose(state, "leader") == ("a", "new")


def test_three_player_lineups_are_neighbours():
    strengths = {"a": 300, "b": 100, "c": 0, "d": -100, "e": -300}
    games = plackett_luce(strengths, 3, 300)
    state = matchmaking.Standing(
        active=list(strengths), seats=3, fit=bradley_terry_fit(games, list(strengths)), units={("a", "b", "c"): 9}
    )
    state.units.update({lineup: 9 for lineup in [("b", "c", "d"), ("c", "d", "e"), ("a", "d", "e")]})
    lineup = matchmaking.choose(state)
    assert len(lineup) == 3 and lineup != ("a", "b", "e")


def league_file(db, labels: list[str]):
    """A new league's file at `db` and its game, of two seats; its players `labels`, each `true`."""
    game = game_from({"protocol": "cli", "name": "duel", "command": "true", "players": 2})
    config = {"command": "league", "game": game.config(), "players": [], "lineups": [], "units": None}
    config |= {"seatings": "balanced", "seed": 1, "sprt": None, "seeds": None, "mode": "uncertain"}
    store = Store.create(db, config, [])
    for label in labels:
        store.join_league(resolve(f"{label}=true", game))
    return store, game


def test_the_league_s_own_lines_give_the_standings_of_league_status(tmp_path, capsys):
    """They counted the games of removed players, which `arena league status` and the live page do
    not: `[league] stopped: 175 games, 2 active players; leader b (+429 Elo)` while the status gave b
    +93."""
    db = tmp_path / "league.sqlite"
    store, game = league_file(db, ["a", "b", "c"])
    for record in plackett_luce({"a": 0, "b": 100, "c": 800}, 2, 150):
        store.add_game({**record, "seed": record["unit"], "reason": "score"})
    league = League(store, game, log=io.StringIO())
    league.prepared.update(("a", "b", "c"))  # ("true" is no bot to start)
    assert main(["league", "remove", "c", "--db", str(db)]) == 0  # from another shell, while it plays
    league.sync()
    line = league.describe()
    store.close()
    capsys.readouterr()
    assert main(["league", "status", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    games = out.split(": ")[1].split(" games among its players")[0]
    b_elo = next(row.split()[3] for row in out.splitlines() if row.split()[1:3] == ["b", "active"])
    assert line.startswith(f"{games} games among its players, 2 active players; leader b ({b_elo} Elo)")


def test_a_league_s_report_rates_its_players_as_its_standings_do(tmp_path, capsys):
    """`arena report` of a league rated a removed player with the others: b at -205 Elo beside a
    removed strong c, where `arena league status` and the live page gave b +8."""
    db = tmp_path / "league.sqlite"
    store, _ = league_file(db, ["a", "b", "c"])
    for record in plackett_luce({"a": 0, "b": 100, "c": 800}, 2, 150):
        store.add_game({**record, "seed": record["unit"], "reason": "score"})
    store.put("config", {**store.config, "lineups": [["a", "b"], ["a", "c"], ["b", "c"]]})  # (as a league saves them)
    store.close()
    assert main(["league", "remove", "c", "--db", str(db)]) == 0
    capsys.readouterr()
    assert main(["league", "status", "--db", str(db)]) == 0
    status = capsys.readouterr().out
    assert main(["report", str(db), "--json", str(tmp_path / "league.json")]) == 0
    report = capsys.readouterr().out
    among = status.split(": ")[1].split(" games among its players")[0]
    assert f"league (duel): {among} games" in report and "removed from the league: c; their " in report
    b_elo = next(row.split()[3] for row in status.splitlines() if row.split()[1:3] == ["b", "active"])
    assert any(row.split()[1:3] == ["b", b_elo] for row in report.splitlines())
    exported = json.loads((tmp_path / "league.json").read_text())
    assert [row["label"] for row in exported["players"]] == ["b", "a"]
    assert exported["run"]["left_out"] == {"players": ["c"], "games": 150 - int(among)}
    # its lineups with the removed player read 0-0-0, as if never played; its page said nothing of it
    assert [row.split()[:3] for row in report.splitlines() if row.split()[1:2] == ["vs"]] == [["a", "vs", "b"]]
    assert main(["report", str(db), "-o", str(tmp_path / "league.html")]) == 0
    assert 'id="left-out">removed from the league: c; their ' in (tmp_path / "league.html").read_text()


def test_a_player_the_user_removed_while_the_league_paused_it_stays_removed(tmp_path):
    """The league paused a player whose program had changed just as the user removed it from another
    shell: the pause was written over the removal, and the league never read the file's change."""
    db = tmp_path / "league.sqlite"
    store, game = league_file(db, ["a", "b", "c"])
    league = League(store, game, log=io.StringIO())
    league.prepared.update(("a", "b", "c"))  # ("true" is no bot to start)
    league.sync()
    assert league.active() == ["a", "b", "c"]
    assert main(["league", "remove", "c", "--db", str(db)]) == 0  # from another shell, while it plays
    league.pause("c", "its program changed")  # (before its next look at the file)
    league.sync()
    standing = store.league_players()
    store.close()
    assert standing["c"]["status"] == REMOVED and league.standing["c"]["status"] == REMOVED
    assert "c" not in league.active()


def test_a_change_of_the_league_s_file_prepares_only_the_players_it_changed(tmp_path, monkeypatch):
    """Each change of the file (a player added or removed from another shell) checked every player
    again (its program's files, read and hashed): a status was compared with a whole row."""
    db = tmp_path / "league.sqlite"
    store, game = league_file(db, ["a", "b"])
    league = League(store, game, log=io.StringIO())
    league.prepared.update(("a", "b"))  # ("true" is no bot to start)
    league.sync()
    readied = []
    monkeypatch.setattr(league, "ready", readied.append)
    other_shell = Store.open(db)
    other_shell.join_league(resolve("c=true", game))  # (as `arena league add` does, while it plays)
    other_shell.close()
    league.sync()
    store.close()
    assert readied == [["c"]]


def test_a_league_stopped_while_its_players_are_built_builds_no_more(tmp_path, monkeypatch):
    """Ctrl+C as the league built its first player said `stopping`, then built every other player
    (minutes each, for a C++ bot) before it stopped."""
    store, game = league_file(tmp_path / "league.sqlite", ["a", "b", "c"])
    league = League(store, game, log=io.StringIO())
    built = []

    def build(players, game, log=None):
        built.extend(player.label for player in players)
        league.stop_requested = True  # Ctrl+C while it builds

    monkeypatch.setattr(registry, "prepare", build)
    league.ready(league.active())
    store.close()
    assert built == ["a"]


@pytest.mark.parametrize("begun", [False, True], ids=["new league", "league gone on with"])
def test_a_player_that_cannot_play_given_at_the_start_is_refused_in_one_line(begun, tmp_path, monkeypatch, capsys):
    """A commit that did not compile, given when the league started, joined and was paused with the
    hint `arena league resume b`, which could never work; `league add` refused it in one line."""
    monkeypatch.setattr(cli_league, "play_until_stopped", lambda store, options: 0)  # (it plays until stopped)
    db = tmp_path / "league.sqlite"
    if begun:
        league_file(db, ["a"])[0].close()
    capsys.readouterr()
    assert main(["league", "b=true", "--db", str(db)]) == 2
    assert capsys.readouterr().err.strip().splitlines()[-1].startswith("arena league: b cannot play: true ended")
    if begun:
        store = Store.open(db, readonly=True)
        assert "b" not in store.league_players()
        store.close()
    else:
        assert not db.exists()


def test_a_start_failure_is_a_failure_before_the_first_answer():
    timed = {"seats": ["a", "b"], "errors": [None, "crash"], "times": [[3.0], []], "turns": 2}
    assert start_failure(timed, 1) and not start_failure(timed, 0)
    assert not start_failure({**timed, "times": [[3.0], [2.0]]}, 1)  # it answered once: a crash later
    untimed = {"seats": ["a", "b"], "errors": [None, "crash"], "times": None, "turns": 2}
    assert start_failure(untimed, 1) and not start_failure({**untimed, "turns": 9}, 1)
    assert start_failure({**untimed, "errors": ["start", None], "turns": 0}, 0)


def test_seed_files(tmp_path):
    path = tmp_path / "seeds.txt"
    path.write_text("# CGBenchmark's seeds\n12\n\n-7  # a comment\n99\n")
    assert read_seeds(str(path)) == [12, -7, 99]
    assert [job.seed for job in jobs([("a", "b")], 1, range(3), "balanced", [12, -7, 99])] == [12, 12, -7, -7, 99, 99]
    path.write_text("12\nseven\n")
    with pytest.raises(ValueError, match="line 2"):
        read_seeds(str(path))
    path.write_text(f"{-(2**63)}\n{2**63 - 1}\n")  # a Java long's ends: a run stores them
    assert read_seeds(str(path)) == [-(2**63), 2**63 - 1]
    path.write_text(f"1\n{2**63}\n")
    with pytest.raises(ValueError, match="line 2: 9223372036854775808 is out of a seed's range"):
        read_seeds(str(path))


def test_a_match_on_a_seed_file_plays_its_seeds_and_no_more(tmp_path, capsys):
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("5\n6\n7\n")
    db = tmp_path / "m.sqlite"
    assert main(["match", "random", "greedy", "--seeds", str(seeds), "--db", str(db), "--workers", "1", "--quiet"]) == 0
    store = Store.open(db, readonly=True)
    assert sorted({g["seed"] for g in store.games()}) == [5, 6, 7] and len(store.games()) == 6
    store.close()
    argv = ["match", "random", "greedy", "--seeds", str(seeds), "--pairs", "4", "--db", str(tmp_path / "x.sqlite")]
    assert main(argv) == 2
    assert "--pairs 4 needs 4 seeds" in capsys.readouterr().err
    assert main(["report", str(db), "--csv", str(tmp_path / "r.csv"), "--json", str(tmp_path / "r.json")]) == 0
    table = list(csv.DictReader((tmp_path / "r.csv").open()))
    assert {row["label"] for row in table} == {"random", "greedy"} and "vs greedy" in table[0]
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["run"]["games"] == 6 and data["cross"]["order"] == [row["label"] for row in table]
    assert sum(data["cross"]["games"][0]) == 6
    assert main(["report", str(db), "--csv", str(db)]) == 2  # never over its input


def test_a_schema_3_file_is_read_and_brought_to_today_s_schema_when_written(tmp_path):
    path = tmp_path / "old.sqlite"
    store = Store.create(path, {"command": "match", "seed": 1, "lineups": [["a", "b"]], "units": 1}, [])
    store.close()
    db = sqlite3.connect(path)
    db.execute("DROP TABLE league_players")
    db.execute("DROP TABLE frames")
    db.execute("UPDATE run SET value = '3' WHERE key = 'schema'")
    db.commit()
    db.close()
    old = Store.open(path, readonly=True)
    assert old.get("schema") == 3 and old.league_players() == {}
    old.close()
    store = Store.open(path)
    assert store.get("schema") == SCHEMA_VERSION == 5
    store.join_league(Player("a", "a", "command", "a", "v1"))
    assert store.league_players()["a"]["status"] == "active"
    store.close()


def test_league_status_names_a_three_player_league_s_results_as_the_report_does(tmp_path, capsys):
    """It headed them W-D-L where the report says 1st-shared-not: first alone, shared, not first."""
    db = tmp_path / "league.sqlite"
    store, _ = league_file(db, ["a", "b", "c"])
    for record in plackett_luce({"a": 0, "b": 100, "c": 200}, 3, 12):
        store.add_game({**record, "seed": record["unit"], "reason": "score"})
    games = store.games()
    store.close()
    capsys.readouterr()
    assert main(["league", "status", "--db", str(db)]) == 0
    header = capsys.readouterr().out.splitlines()[1].split()
    assert players_rows(games, ["a", "b", "c"], ["a", "b", "c"])[1][2] == "1st-shared-not" == header[7]


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the page's script")
@pytest.mark.parametrize("seats, name", [(2, "W-D-L"), (3, "1st-shared-not")])
def test_the_live_page_s_leaderboard_names_results_as_the_report_does(seats, name):
    """It headed them W-D-L whatever the game's player count: its script's leaderboard, run by node."""
    script = live_page.PAGE.split("<script>")[1].split("</script>")[0]
    constants = re.search(r"const TWO_PLAYER_RESULTS = .*?;\n", script)
    leaderboard = re.search(r"function drawLeaderboard\(s\) \{.*?\n\}\n", script, re.DOTALL)
    assert constants and leaderboard, "the page's script changed shape: update this test"
    state = {"leaderboard": [], "latest": [{"seats": ["a"] * seats}]}
    harness = (
        constants[0]
        + leaderboard[0]
        + "function fillTable(id, header) { console.log(JSON.stringify(header)); }\n"
        + "const document = {getElementById: () => ({replaceChildren() {}})};\n"
        + f"drawLeaderboard({json.dumps(state)});\n"
    )
    out = subprocess.run(["node", "-e", harness], capture_output=True, text=True, timeout=30, check=True).stdout
    assert json.loads(out)[7] == name
