"""Whole runs through the `arena` command: matches, reports rebuilt from the database, errors counted
apart, resuming after SIGKILL on a process pool, and SPRTs on real games.

The fast bots (random, boss) are seeded and deterministic, so two runs with the same run seed play
the very same games; the turn limit is raised so a busy machine cannot turn a slow turn into a
timeout and make two such runs differ."""

import itertools
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from arena.cli import main
from arena.games.base import Player
from arena.play.runs import warn_of_one_version
from arena.play.store import Store

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).parent / "scripts" / "misbehave.py"
CALM = ["--turn-ms", "1000", "--quiet"]


def games_of(path):
    """Each game's identity and outcome, comparable across runs."""
    store = Store.open(path)
    try:
        return sorted(
            (
                *g["lineup"],
                g["unit"],
                g["seating"],
                *g["seats"],
                g["seed"],
                *g["bot_seeds"],
                *g["ranks"],
                g["data"]["moves"],
            )
            for g in store.games()
        )
    finally:
        store.close()


def test_match_then_report_from_the_database_alone(tmp_path, capsys):
    db = tmp_path / "m.sqlite"
    assert (
        main(["match", "random", "boss", "--pairs", "3", "--seed", "11", "--workers", "1", "--db", str(db), *CALM]) == 0
    )
    printed = capsys.readouterr().out
    assert "random vs boss" in printed and "timeouts" in printed
    games = Store.open(db).games()
    assert len(games) == 6
    g = games[0]
    assert g["data"]["moves"].split()[2] == "GROW" and g["turns"] >= 1 and g["times"][0][0] > 0
    assert g["versions"][0] and g["finished_at"]
    assert main(["report", str(db)]) == 0
    assert capsys.readouterr().out == printed
    # Resuming asks for more pairs: the first three stay as they were and are not played again.
    before = games_of(db)
    assert main(["match", "--resume", "--db", str(db), "--pairs", "4", "--workers", "1", "--quiet"]) == 0
    after = games_of(db)
    assert len(after) == 8 and set(before) < set(after) and {g[2] for g in after} == {0, 1, 2, 3}
    assert main(["match", "--resume", "--db", str(db), "--workers", "1", "--quiet"]) == 0  # nothing left to play
    assert games_of(db) == after
    assert main(["match", "random", "greedy", "--resume", "--db", str(db), "--quiet"]) == 2  # not this run
    assert "not of random greedy" in capsys.readouterr().err


def test_errors_are_counted_apart(tmp_path, capsys):
    db = tmp_path / "e.sqlite"
    players = [f"{mode}={sys.executable} {SCRIPT} {mode}" for mode in ("crash", "invalid", "slow")]
    assert (
        main(
            ["tournament", *players, *"random --gauntlet random --pairs 1 --workers 1 --seed 3 --quiet".split()]
            + ["--db", str(db)]
        )
        == 0
    )
    out = capsys.readouterr().out
    games = Store.open(db).games()
    assert len(games) == 6
    errors = {(g["seats"][i], e) for g in games for i, e in enumerate(g["errors"]) if e}
    assert errors == {("crash", "crash"), ("invalid", "invalid"), ("slow", "timeout")}
    assert all(g["seats"][g["ranks"].index(0)] == "random" for g in games)
    line = {row.split()[0]: row.split() for row in out.splitlines() if row.split()}
    # player games W-D-L score timeouts invalid crashes ...
    assert line["crash"][4:7] == ["0", "0", "2"]
    assert line["invalid"][4:7] == ["0", "2", "0"]
    assert line["slow"][4:7] == ["2", "0", "0"]
    assert line["random"][4:7] == ["0", "0", "0"]


def test_sigkill_then_resume_plays_the_same_games(tmp_path):
    """The main process of a run on two workers is killed with SIGKILL once both workers have played:
    the workers quit, and the resumed run holds the same games as one run in a single process."""
    args = ["match", "random", "boss", "--pairs", "25", "--seed", "5", *CALM]
    assert main([*args, "--workers", "1", "--db", str(tmp_path / "whole.sqlite")]) == 0

    killed = tmp_path / "killed.sqlite"
    command = [sys.executable, "-m", "arena.cli", *args, "--workers", "2", "--games-per-worker", "2"]
    proc = subprocess.Popen(
        [*command, "--db", str(killed)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    workers = []
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (_stored(killed) < 12 or len(_workers(killed)) < 2):
            time.sleep(0.02)
        workers = _children(proc.pid)
    finally:
        proc.kill()
        proc.wait()
    assert 12 <= _stored(killed) < 50, "the run was not killed part-way"
    assert len(_workers(killed)) == 2 and str(proc.pid) not in " ".join(_workers(killed))
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(Path(f"/proc/{pid}").exists() for pid in workers):
        time.sleep(0.1)
    orphans = [pid for pid in workers if Path(f"/proc/{pid}").exists()]
    for pid in orphans:
        os.kill(pid, signal.SIGKILL)
    assert workers and not orphans, "workers outlived their main process"

    assert main(["match", "--resume", "--db", str(killed), "--workers", "1", "--quiet"]) == 0
    assert games_of(killed) == games_of(tmp_path / "whole.sqlite")


def _children(pid):
    """The processes whose parent is `pid` (from /proc: field 4 of /proc/PID/stat is the parent)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _stored(path):
    return len(_query(path, "SELECT id FROM games"))


def _workers(path):
    return {row[0] for row in _query(path, "SELECT DISTINCT worker FROM games")}


def _query(path, sql):
    """Rows of a run's database while another process writes it (none before its schema exists)."""
    if not path.exists():
        return []
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            return db.execute(sql).fetchall()
    except sqlite3.OperationalError:
        return []


def test_sprt_accepts_h1_against_a_much_weaker_bot(tmp_path, capsys):
    db = tmp_path / "h1.sqlite"
    args = "sprt greedy random --elo0 0 --elo1 100 --seed 1 --workers 1".split()
    assert main([*args, "--db", str(db), *CALM]) == 0
    out = capsys.readouterr().out
    assert "accepted H1" in out
    assert len(Store.open(db).games()) < 100  # it stopped early
    assert main(["report", str(db)]) == 0
    assert "accepted H1" in capsys.readouterr().out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sprt_never_accepts_h1_between_copies_of_a_bot(tmp_path, capsys, seed):
    """With the default hypotheses (0 and 10 Elo) two copies of a bot run to the game limit or
    accept H0. The first pairs decide nothing, even a first pair won twice (an LLR in the tens)."""
    db = tmp_path / "h0.sqlite"
    args = f"sprt random copy=random --max-pairs 30 --seed {seed} --workers 1".split()
    status = main([*args, "--db", str(db), *CALM])
    out = capsys.readouterr().out
    assert "accepted H1" not in out
    assert "accepted H0" in out or "no decision within 30 pairs" in out
    assert status == (1 if "accepted H0" in out else 3)


def test_two_players_of_one_version_are_warned_of_before_the_run(tmp_path, capsys):
    """`arena sprt new=bot.js old=bot.js@HEAD~1`, the file unchanged in that commit (both of version
    6c5c666f2d97), ran for hours without a word. Now a warning comes first, and the run plays."""
    db = str(tmp_path / "one.sqlite")
    assert main(["sprt", "random", "copy=random", "--max-pairs", "1", "--seed", "1", "--db", db, *CALM]) == 3
    err = capsys.readouterr().err
    assert err.startswith("warning: random and copy are the same version ("), err
    assert "their games measure chance alone" in err and "an SPRT of them runs long" in err
    assert len(Store.open(db).games()) == 2


def test_the_warning_of_one_version_is_of_one_version_alone(capsys):
    """A match's warning says nothing of an SPRT; players of two versions are not warned of."""
    one, other = (Player(label, label, "bot", label, version) for label, version in (("a", "v1"), ("b", "v2")))
    warn_of_one_version(one, replace(one, label="c"), sprt=False)
    err = capsys.readouterr().err
    assert err.startswith("warning: a and c are the same version (v1): the same program") and "SPRT" not in err
    warn_of_one_version(one, other, sprt=True)
    assert capsys.readouterr().err == ""


def test_a_working_tree_that_holds_the_commit_s_files_again_is_warned_of(capsys):
    """bot.cpp as it was at HEAD~1 against bot.cpp@HEAD~1: versions 8bfd67f20a91+dirty and 8bfd67f20a91,
    the same program, with no warning; values given in the environment still tell two versions apart."""
    new, old = (
        Player(label, label, "source", label, version)
        for label, version in (("new", "8bfd67f20a91+dirty"), ("old", "8bfd67f20a91"))
    )
    warn_of_one_version(new, old, sprt=True)
    assert capsys.readouterr().err.startswith("warning: new and old are the same version (8bfd67f20a91): the same")
    warn_of_one_version(
        replace(new, version="8bfd67f20a91+dirty:K=1"), replace(old, version="8bfd67f20a91:K=2"), sprt=True
    )
    assert capsys.readouterr().err == ""


def test_a_report_whose_reader_has_gone_ends_quietly(tmp_path):
    """`arena report DB | head` (and a referee's output so read): the pipe closes early; no traceback
    nor error, exit 0, whether Python's output is buffered (as on most machines) or not."""
    db = tmp_path / "m.sqlite"
    assert main([*"match random boss --pairs 1 --seed 3 --workers 1".split(), "--db", str(db), *CALM]) == 0
    random = f"{sys.executable} -m bots.volcanoes.random"
    commands = [["arena.cli", "report", str(db)], ["referee.cli", "volcanoes", "play", random, random, "--json"]]
    for command, unbuffered in itertools.product(commands, ("1", "")):
        read, write = os.pipe()
        os.close(read)  # every write to the command's stdout fails
        done = subprocess.run(
            [sys.executable, "-m", *command],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            env={**os.environ, "PYTHONUNBUFFERED": unbuffered},
        )
        os.close(write)
        assert done.returncode == 0 and "Error" not in done.stderr, (command, unbuffered, done.stderr)


def test_a_game_option_given_again_must_say_what_the_run_began_with(tmp_path, capsys):
    """`arena match --resume --turn-ms 5` played on at the stored 100 ms, saying nothing."""
    db = tmp_path / "m.sqlite"
    assert main(["match", "random", "greedy", "--pairs", "1", "--workers", "1", "--db", str(db), "--quiet"]) == 0
    capsys.readouterr()
    for given, said in (
        (["--turn-ms", "5"], f"{db} was begun with --turn-ms 100, not --turn-ms 5: a run keeps its game's options"),
        (["--league", "2"], "the volcanoes protocol takes no setting league (its settings: turn_ms, first_turn_ms)"),
    ):
        assert main(["match", "--resume", "--db", str(db), *given]) == 2
        assert capsys.readouterr().err.strip() == f"arena match: {said}"
    assert main(["match", "--resume", "--db", str(db), "--turn-ms", "100", "--pairs", "2", "--quiet"]) == 0


@pytest.mark.parametrize(
    "command,given,said",
    [
        ("tournament", ["--players", "3"], "takes no setting players (its settings: turn_ms, first_turn_ms; "),
        ("match", ["--players", "3"], "volcanoes is a 2-player game"),
        ("match", ["--league", "3"], "takes no setting league"),
        ("match", ["--seed-flag", "x{seed}"], "takes no setting seed_flag"),
        ("match", ["--viewer", "/tmp"], "takes no setting viewer"),
        ("match", ["--allow-unseeded"], "--allow-unseeded is for a referee that may ignore the seed"),
    ],
)
def test_an_option_volcanoes_takes_not_is_refused_in_one_line(tmp_path, capsys, command, given, said):
    """`arena tournament greedy random boss --players 3` played 2-player games, saying nothing."""
    players = ["greedy", "random", "boss"]
    assert main([command, *players, *given, "--pairs", "1", "--db", str(tmp_path / "v.sqlite"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"arena {command}: ") and said in err and err.count("\n") == 1, err
    assert not (tmp_path / "v.sqlite").exists()


def test_volcanoes_takes_players_2_as_what_it_is(tmp_path, capsys):
    db = tmp_path / "v.sqlite"
    assert (
        main(["match", "random", "greedy", "--players", "2", "--pairs", "1", "--workers", "1", "--db", str(db), *CALM])
        == 0
    )
    # Given again to a resumed run, they were taken and ignored (--viewer, --seed-flag), or said to
    # differ from what it began with (--players 3: "was begun with --players 2"), as if they could
    capsys.readouterr()
    for given, said in [
        (["--viewer", "/tmp"], "viewer"),
        (["--players", "3"], "players"),
        (["--seed-flag", "x"], "seed_flag"),
    ]:
        assert main(["match", "random", "greedy", *given, "--pairs", "2", "--resume", "--db", str(db), *CALM]) == 2
        err = capsys.readouterr().err
        assert f"the volcanoes protocol takes no setting {said} (" in err and err.count("\n") == 1, err


def test_the_progress_lines_figures_count_the_games_its_counter_does(tmp_path, capsys):
    """The line drew each game's count beside the figures of the game before (`3/4 ... W-D-L 1-0-1`)."""
    import re

    args = "match random greedy --pairs 2 --seed 3 --workers 1 --turn-ms 1000".split()
    assert main([*args, "--db", str(tmp_path / "r.sqlite")]) == 0
    drawn = re.findall(r" (\d+)/4 .*?W-D-L (\d+)-(\d+)-(\d+)", capsys.readouterr().err.replace("\r", "\n"))
    assert drawn and all(int(n) == int(w) + int(d) + int(lost) for n, w, d, lost in drawn), drawn


def test_the_progress_lines_interval_is_the_reports():
    """A clean sweep showed `score 100.0% +- 0.0`, surer than any result, where the report gave it
    the one-sided bound `> -154` (3 pairs): the line now shows the interval the report's Elo is of."""
    from arena.play.runs import Live
    from arena.stats.estimates import elo_from_score
    from arena.stats.tables import unit_counter

    config = {"command": "match", "lineups": [["a", "b"]], "sprt": None}
    won_by_a = [
        {"lineup": ["a", "b"], "unit": unit, "seating": seating, "seats": seats, "errors": [None, None]}
        | {"ranks": [0 if label == "a" else 1 for label in seats]}
        for unit in range(3)
        for seating, seats in enumerate((["a", "b"], ["b", "a"]))
    ]
    line = Live(config, won_by_a).describe()
    low, high = unit_counter(won_by_a, config, "a", "b").estimate().score_interval
    assert line.startswith(f"W-D-L 6-0-0 score 100.0% [{100 * low:.1f}, {100 * high:.1f}] of 3 pairs"), line
    assert round(elo_from_score(low)) == -154 and high == 1.0
    # A pair half played: in the W-D-L, not in the score, which says over how many pairs it is
    # (it read `W-D-L 4-0-3 score 50.0%`, a score of no 7 games).
    half = {"lineup": ["a", "b"], "unit": 3, "seating": 0, "seats": ["a", "b"], "errors": [None, None]}
    line = Live(config, [*won_by_a, half | {"ranks": [1, 0]}]).describe()
    assert line.startswith("W-D-L 6-0-1 score 100.0% ") and " of 3 pairs " in line, line


@pytest.mark.parametrize(
    "command,given,said",
    [
        ("sprt", ["--elo1", "50"], "was run with --elo1 100, not 50"),
        ("sprt", ["--seatings", "rotations"], "was run with --seatings balanced, not rotations"),
        ("sprt", ["--seeds", "SEEDS"], "was run with seeds derived from --seed 4, not those of"),
        ("tournament", ["--gauntlet", "greedy"], "was not begun as a gauntlet of greedy: a run keeps its lineups"),
    ],
)
def test_a_resumed_run_refuses_what_would_draw_other_games(tmp_path, capsys, command, given, said):
    """Given again with --resume, these were taken and ignored: the run went on with its own, unsaid."""
    db, seeds = tmp_path / "r.sqlite", tmp_path / "seeds.txt"
    seeds.write_text("5\n6\n")
    players = ["greedy", "random"] + (["boss"] if command == "tournament" else [])
    begin = [command, *players, "--seed", "4", "--workers", "1", "--db", str(db), *CALM]
    undecided = 3  # (the SPRT's status: one pair decides nothing)
    assert main(begin + (["--elo1", "100", "--max-pairs", "1"] if command == "sprt" else ["--pairs", "1"])) in (
        undecided if command == "sprt" else 0,
    )
    capsys.readouterr()
    given = [str(seeds) if word == "SEEDS" else word for word in given]
    assert main([command, "--resume", "--db", str(db), *given]) == 2
    assert said in capsys.readouterr().err


def test_runs_begun_in_one_second_each_get_a_file_of_their_own(tmp_path, monkeypatch, capsys):
    """The second of two runs a script began together was refused: `arena-runs/match-STAMP.sqlite
    exists: resume it with --resume`, for a --db it never gave, naming another's run."""
    from arena.play import runs

    monkeypatch.chdir(tmp_path)

    class Frozen(runs.datetime):
        @classmethod
        def now(cls, tz=None):
            return runs.datetime(2026, 11, 29, 12, 0, 0, tzinfo=tz)

    monkeypatch.setattr(runs, "datetime", Frozen)
    for seed in ("1", "2"):
        assert main(["match", "greedy", "random", "--pairs", "1", "--seed", seed, "--workers", "1", *CALM]) == 0
    made = sorted(p.name for p in (tmp_path / "arena-runs").glob("*.sqlite"))
    assert made == ["match-20261129-120000-2.sqlite", "match-20261129-120000.sqlite"]
    assert runs.newest_run("match").name == "match-20261129-120000-2.sqlite"


def test_the_commands_a_run_suggests_can_be_pasted_whatever_its_path(tmp_path, capsys):
    """`(arena report my runs/r.sqlite rebuilds this report)` failed when pasted; a folder given as a
    database was 'no such database'."""
    db = tmp_path / "my runs" / "r 1.sqlite"
    assert main(["match", "greedy", "random", "--pairs", "1", "--workers", "1", "--db", str(db), *CALM]) == 0
    err = capsys.readouterr().err
    assert f"(arena report '{db}' rebuilds this report)" in err
    assert main(["report", str(tmp_path / "my runs")]) == 2
    assert "my runs is a folder, not a run's database" in capsys.readouterr().err


def test_a_run_of_a_seed_file_goes_on_with_a_longer_one_that_begins_with_its_seeds(tmp_path, capsys):
    """--pairs past the seeds needed more seeds, and any other seed file was refused: such a run
    could never be extended."""
    db, first, longer, other = (tmp_path / name for name in ("r.sqlite", "a.txt", "b.txt", "c.txt"))
    first.write_text("1\n2\n3\n")
    longer.write_text("1\n2\n3\n7\n8\n")
    other.write_text("5\n6\n7\n8\n9\n")
    begin = ["match", "greedy", "random", "--seeds", str(first), "--pairs", "2", "--workers", "1", "--db", str(db)]
    assert main([*begin, *CALM]) == 0
    assert main(["match", "--resume", "--db", str(db), "--seeds", str(other), "--pairs", "5"]) == 2
    assert "(a longer file that begins with them extends the run)" in capsys.readouterr().err
    assert main(["match", "--resume", "--db", str(db), "--seeds", str(longer), "--pairs", "5", "--quiet"]) == 0
    games = Store.open(db, readonly=True).games()
    assert sorted({g["seed"] for g in games}) == [1, 2, 3, 7, 8]


def test_a_run_of_a_seed_file_resumed_with_a_seed_says_it_ran_on_its_file(tmp_path, capsys):
    """It said 'was run with --seed 187991932', a seed the user never gave (a seed file's run keeps one)."""
    db, seeds = tmp_path / "r.sqlite", tmp_path / "a.txt"
    seeds.write_text("1\n2\n")
    assert main(["match", "greedy", "random", "--seeds", str(seeds), "--workers", "1", "--db", str(db), *CALM]) == 0
    capsys.readouterr()
    assert main(["match", "--resume", "--db", str(db), "--seed", "5"]) == 2
    assert f"{db} was run with the seeds of a seed file (--seeds), not --seed 5" in capsys.readouterr().err


def test_a_seed_files_run_checks_and_names_its_own_seeds(tmp_path, capsys, monkeypatch):
    """Its seed check played a seed drawn from --seed, which no game of the run plays (a referee may
    take only the user's), and its report's headline named that seed."""
    root = Path(__file__).resolve().parents[2]
    monkeypatch.chdir(root)
    seeds = tmp_path / "s.txt"
    seeds.write_text("11\n22\n")
    bots = "tests/games/pebbles/bots"
    args = ["match", f"python {bots}/greedy.py", f"python {bots}/first.py", "--seeds", str(seeds), "--workers", "1"]
    args += ["--referee", f"{sys.executable} -m tests.games.pebbles.cli_referee", "--protocol", "cli"]
    assert main([*args, "--db", str(tmp_path / "r.sqlite")]) == 0
    captured = capsys.readouterr()
    assert "  seed 11 played twice " in captured.err, captured.err
    assert "match (cli game): 4 games, the seeds of a seed file (2)" in captured.out, captured.out


def test_a_run_of_all_its_seeds_goes_on_to_all_the_seeds_of_a_longer_file(tmp_path):
    """--pairs defaults to the seeds' number, yet `--resume --seeds LONGER` without --pairs said
    '6 games at most, 6 already played' and played nothing."""
    db, first, longer = (tmp_path / name for name in ("r.sqlite", "a.txt", "b.txt"))
    first.write_text("1\n2\n3\n")
    longer.write_text("1\n2\n3\n7\n8\n")
    begin = ["match", "greedy", "random", "--seeds", str(first), "--workers", "1", "--db", str(db)]
    assert main([*begin, *CALM]) == 0
    assert main(["match", "--resume", "--db", str(db), "--seeds", str(longer), "--quiet"]) == 0
    games = Store.open(db, readonly=True).games()
    assert sorted({g["seed"] for g in games}) == [1, 2, 3, 7, 8] and len(games) == 10


@pytest.mark.parametrize(
    "players,pairs,status,said",
    [
        (["greedy", "random"], 12, 0, "accepted H1"),
        (["random", "greedy"], 12, 1, "accepted H0"),
        (["greedy", "random"], 3, 3, "no decision within 3 pairs"),
    ],
)
def test_an_sprt_s_exit_status_is_what_it_decided(tmp_path, capsys, players, pairs, status, said):
    """A CI job asks "is this commit better?": the SPRT exited 0 whether it accepted H1, H0 or
    decided nothing. Now 0, 1 and 3, the same again when the finished run is resumed."""
    db = str(tmp_path / "s.sqlite")
    argv = ["sprt", *players, "--elo0", "0", "--elo1", "300", "--max-pairs", str(pairs), "--seed", "2"]
    assert main([*argv, "--workers", "1", "--db", db, *CALM]) == status
    assert said in capsys.readouterr().out
    assert main(["sprt", "--resume", "--db", db, "--quiet"]) == status
    with pytest.raises(SystemExit):
        main(["sprt", "--help"])
    assert f"{status} when it" in capsys.readouterr().out.replace("\n", " ")  # (its help says so too)
    assert main(["report", db, "--json", str(tmp_path / "r.json")]) == 0
    test = json.loads((tmp_path / "r.json").read_text())["sprt"]
    assert test["verdict"] == {0: "H1", 1: "H0", 3: None}[status] and test["players"] == players
    assert (test["elo1"], test["max_units"], test["lower"] < 0 < test["upper"]) == (300, pairs, True)


def test_a_resumed_run_refuses_fewer_units_than_it_played(tmp_path, capsys):
    """`--resume --max-pairs 2` on a run of 3 pairs said "4 games at most, 6 already played", then
    "no decision within 2 pairs" after an LLR of 3 pairs."""
    db = str(tmp_path / "m.sqlite")
    assert main(["match", "random", "greedy", "--pairs", "2", "--seed", "5", "--workers", "1", "--db", db, *CALM]) == 0
    capsys.readouterr()
    assert main(["match", "--resume", "--db", db, "--pairs", "1", "--quiet"]) == 2
    assert f"{db} has played 2 pairs (units) already: give 2 or more" in capsys.readouterr().err
    assert main(["match", "--resume", "--db", db, "--pairs", "2", "--quiet"]) == 0


def test_a_run_is_told_to_go_on_on_the_machines_it_played_on():
    """A cluster's run was told to go on with `arena match --resume --db X`, which played on this
    machine alone."""
    from arena.play.runs import RunOptions, command_again

    db = Path("runs/my run.sqlite")
    assert command_again("match --resume", db, RunOptions()) == "arena match --resume --db 'runs/my run.sqlite'"
    cluster = RunOptions(backend="ray", ray_address="10.0.0.1:6379")
    assert command_again("league", db, cluster).endswith("--db 'runs/my run.sqlite' --ray-address 10.0.0.1:6379")
    assert command_again("sprt --resume", db, RunOptions(backend="ray")).endswith(" --backend ray")


RANDOM_BOT = """import sys
n = int(sys.stdin.readline())
for _ in range(n):
    sys.stdin.readline()
while sys.stdin.readline() and sys.stdin.readline():
    print("RANDOM", flush=True)
"""


def test_a_run_whose_bot_changed_is_not_resumed_and_says_which(tmp_path, capsys):
    bot = tmp_path / "bot.py"
    bot.write_text(RANDOM_BOT)
    db = tmp_path / "r.sqlite"
    assert (
        main(["match", f"mine=python3 {bot}", "random", "--pairs", "1", "--workers", "1", "--db", str(db), *CALM]) == 0
    )
    bot.write_text(RANDOM_BOT + "# edited\n")
    capsys.readouterr()
    assert main(["match", "--resume", "--db", str(db), "--pairs", "2"]) == 2
    err = capsys.readouterr().err
    assert f"arena match: cannot resume {db}: player mine: its program changed (version " in err, err
