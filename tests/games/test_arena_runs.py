"""Every arena command on a game of its own: Pebbles (tests/games/pebbles) refereed by external
referees in protocols (A) cli, (C) sdk and (D) relay, with 2 and 3 players, through `match`,
`tournament`, `sprt`, `tune` and `--resume`; a referee that ignores the seed is caught before the
run; a referee that crashes fails its games as the referee's, never as a bot's loss."""

import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.cli import main
from arena.play.store import Store
from tests.games.pebbles.harness import games_stored, stored

ROOT = Path(__file__).resolve().parents[2]
BOTS = ROOT / "tests" / "games" / "pebbles" / "bots"
REFEREES = {
    "cli": f"{sys.executable} -m tests.games.pebbles.cli_referee",
    "sdk": f"{sys.executable} -m tests.games.pebbles.sdk_referee",
    "relay": f"{sys.executable} -m tests.games.pebbles.relay_referee",
}


def bot(name: str, label: str | None = None) -> str:
    command = shlex.join([sys.executable, str(BOTS / f"{name}.py")])
    return f"{label or name}={command}"


def game(protocol: str, *extra: str) -> list[str]:
    return ["--referee", " ".join([REFEREES[protocol], *extra]), "--protocol", protocol]


@pytest.fixture(autouse=True)
def at_the_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # the referees run as `python -m tests.games.pebbles...`


@pytest.mark.parametrize("protocol", sorted(REFEREES))
def test_a_match_on_an_external_referee_and_its_report(protocol, tmp_path, capsys):
    db = tmp_path / "m.sqlite"
    argv = ["match", bot("greedy"), bot("worst"), *game(protocol), "--pairs", "3", "--seed", "4"]
    assert main([*argv, "--workers", "1", "--db", str(db), "--quiet"]) == 0
    out = capsys.readouterr()
    assert "honours the seed" in out.err or "began the same game" in out.err
    config, games, failures = stored(db)
    assert config["game"]["protocol"] == protocol and config["seed_check"] == "honoured"
    assert len(games) == 6 and not failures
    assert {(tuple(g["lineup"]), g["unit"], g["seating"]) for g in games} == {
        (("greedy", "worst"), unit, seating) for unit in range(3) for seating in range(2)
    }
    assert all(g["seats"][g["ranks"].index(0)] == "greedy" and not any(g["errors"]) for g in games)
    for unit in range(3):  # one seed a unit, each player once in each seat
        pair = [g for g in games if g["unit"] == unit]
        assert len({g["seed"] for g in pair}) == 1 and {tuple(g["seats"]) for g in pair} == {
            ("greedy", "worst"),
            ("worst", "greedy"),
        }
    timed = protocol != "cli"  # (A): the referee keeps the clocks
    assert all((g["times"] is not None) == timed for g in games)
    assert ("no time per turn is known to the arena" in out.out) == (not timed)
    assert main(["report", str(db)]) == 0
    assert capsys.readouterr().out == out.out


def test_a_three_player_tournament_rates_every_player(tmp_path, capsys):
    db = tmp_path / "t.sqlite"
    players = [bot("greedy"), bot("first"), bot("worst"), bot("greedy", "twin")]
    argv = ["tournament", *players, *game("sdk"), "--players", "3", "--pairs", "1", "--seed", "2"]
    assert main([*argv, "--workers", "2", "--db", str(db), "--quiet"]) == 0
    out = capsys.readouterr().out
    config, games, _ = stored(db)
    assert len(config["lineups"]) == 4 and all(len(lineup) == 3 for lineup in config["lineups"])
    assert len(games) == 4 * 6  # each lineup's unit: 3 rotations, and 3 of it reversed
    ratings = out.split("Ratings, ", 1)[1].split("\n\n", 1)[0].splitlines()[3:]
    order = [row.split()[1] for row in ratings]
    assert set(order[:2]) == {"greedy", "twin"} and order[2:] == ["first", "worst"]
    assert "mean unit score" in out  # the lineups' head-to-head in units of 6 games


def test_sprt_in_three_player_games_decides_on_the_two_players_head_to_head(tmp_path, capsys):
    db = tmp_path / "s.sqlite"
    argv = ["sprt", bot("greedy"), bot("worst"), bot("first"), *game("relay"), "--players", "3"]
    argv += ["--elo0", "0", "--elo1", "200", "--seed", "6", "--workers", "1", "--db", str(db), "--quiet"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "SPRT greedy vs worst" in out and "accepted H1" in out
    _, games, _ = stored(db)
    assert len(games) % 6 == 0 and len(games) < 6 * 100  # whole units, stopped early


def test_tune_a_command_line_bot_through_its_environment(tmp_path, capsys):
    db = tmp_path / "tune.sqlite"
    start = f"env K=6 {shlex.join([sys.executable, str(BOTS / 'tunable.py')])}"
    argv = ["tune", start, "--params", "K=0:8", "--opponent", bot("first"), *game("cli")]
    argv += ["--iterations", "12", "--pairs-per-iteration", "2", "--confirm-pairs", "2", "--seed", "3"]
    assert main([*argv, "--workers", "2", "--db", str(db), "--quiet"]) == 0
    out = capsys.readouterr().out
    store = Store.open(db, readonly=True)
    iterations, games = store.iterations(), store.games()
    store.close()
    assert len(iterations) == 12 and iterations[0]["theta"] == {"K": 6}
    assert iterations[-1]["after"]["K"] < 6  # the stronger side (lower K) pulled it down
    plus = {v for g in games for label, v in zip(g["seats"], g["versions"], strict=True) if label == "plus"}
    assert len(plus) > 1  # each iteration's values are a version of their own
    tuned = next(line for line in out.splitlines() if line.startswith("tuned: "))
    assert tuned.startswith("tuned: env K=") and "tunable.py" in tuned


def test_a_tune_of_a_command_without_its_values_confirms_against_the_values_it_started_from(tmp_path, capsys):
    """K left out of the bot's environment starts from the middle of its range (4): the confirmation's
    start, and the suggested check's, played the bot's own default (K=0), which the tune never played."""
    db = tmp_path / "tune.sqlite"
    command = shlex.join([sys.executable, str(BOTS / "tunable.py")])
    argv = ["tune", command, "--params", "K=0:8", *game("cli"), "--iterations", "1", "--pairs-per-iteration", "1"]
    assert main([*argv, "--confirm-pairs", "1", "--seed", "11", "--workers", "1", "--db", str(db), "--quiet"]) == 0
    tuned = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("tuned: "))
    assert f" {shlex.quote(f'env K=4 {command}')} --referee " in tuned  # (the check's second bot: its start)
    store = Store.open(db, readonly=True)
    start = {p.label: p for p in store.players()}["start"]
    store.close()
    assert start.spec == f"env K=4 {command}"
    # resumed with the command as first given (the tune is done: nothing left to play)
    assert main(["tune", command, "--params", "K=0:8", "--resume", "--db", str(db), "--quiet"]) == 0


def test_a_tune_says_which_of_its_games_failed(tmp_path, capsys):
    """Games the referee failed count for nobody, each iteration's step made from its others: said
    nowhere, neither as it played nor in its report (8 of 20 failed, the report showed 12 games)."""
    db = tmp_path / "tune.sqlite"
    start = f"env K=6 {shlex.join([sys.executable, str(BOTS / 'tunable.py')])}"
    argv = ["tune", start, "--params", "K=0:8", *game("cli", "--misbehave", "crash-odd")]
    argv += ["--iterations", "2", "--pairs-per-iteration", "2", "--confirm-pairs", "1", "--seed", "2"]
    assert main([*argv, "--workers", "1", "--db", str(db), "--quiet"]) == 0
    failures = len(stored(db)[2])
    assert failures and f"{failures} games failed and count for nobody (each iteration's step made" in (
        capsys.readouterr().out
    )
    assert main(["report", str(db)]) == 0 and "count for nobody" in capsys.readouterr().out


def test_an_interrupted_run_resumes_without_losing_or_repeating_games(tmp_path):
    args = ["match", bot("greedy"), bot("first"), *game("relay"), "--pairs", "8", "--seed", "5", "--quiet"]
    assert main([*args, "--workers", "1", "--db", str(tmp_path / "whole.sqlite")]) == 0

    killed = tmp_path / "killed.sqlite"
    proc = _started(args, killed, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        _until_stored(killed, 4)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the run, its workers, its referees and bots at once
        proc.wait()
    assert 4 <= games_stored(killed) < 16, "the run was not killed part-way"
    assert main(["match", "--resume", "--db", str(killed), "--workers", "1", "--quiet"]) == 0

    def key(g):
        return (tuple(g["lineup"]), g["unit"], g["seating"], tuple(g["seats"]), tuple(g["ranks"]), g["seed"])

    assert sorted(map(key, stored(killed)[1])) == sorted(map(key, stored(tmp_path / "whole.sqlite")[1]))


def test_a_run_stopped_by_sigterm_says_how_to_go_on_and_resumes(tmp_path):
    """`timeout 1h arena match ...` or a scheduler's kill: the run stops as on Ctrl+C, saying so."""
    db = tmp_path / "termed.sqlite"
    args = ["match", bot("greedy"), bot("first"), *game("relay"), "--pairs", "8", "--seed", "5", "--quiet"]
    proc = _started(args, db, stderr=subprocess.PIPE, text=True)
    try:
        _until_stored(db, 4)
        proc.send_signal(signal.SIGTERM)  # the run's own process alone, as `timeout` and `kill` send it
        err = proc.communicate(timeout=60)[1]
    finally:
        proc.kill()
    assert 4 <= games_stored(db) < 16, "the run was not stopped part-way"
    assert proc.returncode == 130 and f"Continue with:\n  arena match --resume --db {db}" in err, err
    assert main(["match", "--resume", "--db", str(db), "--workers", "1", "--quiet"]) == 0
    games = stored(db)[1]
    assert len(games) == 16 and len({(g["unit"], g["seating"]) for g in games}) == 16


def _started(args: list[str], db: Path, **popen) -> subprocess.Popen:
    """`arena ARGS --workers 2 --db DB` started in the background (its output to `popen`'s streams)."""
    command = [sys.executable, "-m", "arena.cli", *args, "--workers", "2", "--db", str(db)]
    return subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, **popen)


def _until_stored(db: Path, games: int) -> None:
    """Wait (two minutes at most) until `db` holds `games` games."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and games_stored(db) < games:
        time.sleep(0.05)


def test_a_referee_that_ignores_the_seed_is_refused_unless_allowed(tmp_path, capsys):
    db = tmp_path / "u.sqlite"
    argv = ["match", bot("greedy"), bot("first"), *game("cli", "--misbehave", "ignore-seed"), "--pairs", "2"]
    assert main([*argv, "--workers", "1", "--db", str(db), "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert "ignores the seed" in err[-1] and "--allow-unseeded" in err[-1]
    assert "--seed-flag" in err[-1]  # what to fix, in the words of this protocol
    assert not db.exists()
    assert main([*argv, "--allow-unseeded", "--workers", "1", "--db", str(db), "--quiet"]) == 0
    config, games, _ = stored(db)
    assert config["unpaired"] and len(games) == 4
    assert "ignores the seed: every game counts on its own" in capsys.readouterr().out


def test_a_crashing_referee_fails_its_games_not_the_bots(tmp_path, capsys):
    """A referee that crashes on odd seeds: those games are the referee's failures, counted for
    nobody and shown; the others count; no bot is charged with an error."""
    db = tmp_path / "c.sqlite"
    argv = ["match", bot("greedy"), bot("first"), *game("cli", "--misbehave", "crash-odd"), "--pairs", "6"]
    assert main([*argv, "--seed", "2", "--workers", "1", "--db", str(db), "--quiet"]) == 0
    out = capsys.readouterr()
    config, games, failures = stored(db)
    assert failures and games and len(games) + len(failures) == 12
    assert all(f["kind"] == "referee" and "RuntimeError" in (f["detail"] + f["stderr"]) for f in failures)
    assert all(f["seed"] % 2 == 1 for f in failures) and all(g["seed"] % 2 == 0 for g in games)
    assert not any(e for g in games for e in g["errors"])
    assert f"{len(failures)} games failed and count for nobody" in out.out
    assert "played again by --resume" in out.out


def test_a_game_declared_in_arena_toml_runs_by_its_name(tmp_path, capsys):
    config = tmp_path / "arena.toml"
    declared = f'[games.pebbles]\nprotocol = "relay"\ncommand = {REFEREES["relay"]!r}\nplayers = 3\nturn_ms = 500\n'
    config.write_text(declared + f'cwd = "{ROOT}"\n')  # where its module is (by default the file's own folder)
    db = tmp_path / "d.sqlite"
    argv = ["match", bot("greedy"), bot("first"), bot("worst"), "--game", "pebbles", "--config", str(config)]
    assert main([*argv, "--pairs", "1", "--seed", "1", "--workers", "1", "--db", str(db), "--quiet"]) == 0
    stored_config, games, _ = stored(db)
    assert stored_config["game"]["name"] == "pebbles" and stored_config["game"]["turn_ms"] == 500
    assert stored_config["game"]["cwd"] == str(ROOT)
    assert len(games) == 6 and "match (pebbles)" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv, says",
    [
        (["match", "a", "b", "--referee", "x"], "--referee needs --protocol"),
        (["match", "a", "b", "--game", "nosuch"], "no game 'nosuch'"),
        (["match", "a", "b", "--game", "x", "--referee", "y", "--protocol", "cli"], "not both"),
        (["match", "a", "b", "--protocol", "sdk"], "--protocol goes with --referee"),
        (["sprt", "a", "b", "--players", "3", "--referee", "x", "--protocol", "cli"], "give 3 (NEW BASE, then"),
        (["match", "a", "--referee", "x", "--protocol", "cli"], "a match is between two players"),
        (
            ["match", "a", "b", "c", "--referee", "x", "--protocol", "cli"],
            "arena match A B (for a game of 3: --players 3)",
        ),
        (["sprt", "a", "b", "c", "--referee", "x", "--protocol", "cli"], "NEW BASE (for a game of 3: --players 3)"),
        (["match", "greedy", "random", "boss"], "a match is between two players: arena match A B\n"),
        (["match", "a", "b", "--referee", "x", "--protocol", "cli", "--turn-ms", "50"], "turn_ms"),
    ],
)
def test_a_mistake_in_the_game_is_one_line(argv, says, tmp_path, capsys):
    assert main([*argv, "--db", str(tmp_path / "x.sqlite"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1, err
    assert not (tmp_path / "x.sqlite").exists()


def test_a_json_template_that_passes_no_seed_is_known_unseeded(tmp_path, capsys):
    """It was "cannot be checked", and the run's pairs counted as pairs of one seed each."""
    referee = shlex.join([sys.executable, "-c", "import json; print(json.dumps({'ranks': [0, 1], 'errors': [0, 0]}))"])
    argv = ["match", bot("greedy"), bot("first"), "--referee", f"{referee} {{players}}", "--protocol", "json"]
    argv += ["--pairs", "1", "--workers", "1", "--quiet"]
    assert main([*argv, "--db", str(tmp_path / "a.sqlite")]) == 2
    assert "its command gives the referee no seed" in capsys.readouterr().err
    assert main([*argv, "--db", str(tmp_path / "b.sqlite"), "--allow-unseeded"]) == 0
    assert stored(tmp_path / "b.sqlite")[0]["unpaired"]


def test_the_same_game_with_other_players_is_said_to_keep_its_players(tmp_path):
    """A 3-player relay league started again with --players 4 and its own --referee and --protocol
    was said to be of another game ("its game was chosen when it began"); without them, rightly,
    to have begun with --players 3."""
    from arena.cli import build_parser
    from arena.cli.options import game_of, refuse_another_game
    from arena.play.store import StoreError

    given = ["league", "--players", "4", *game("relay")]
    args = build_parser().parse_args(given)
    began = build_parser().parse_args([*given[:2], "3", *given[3:]])
    for again in (args, build_parser().parse_args(["league", "--players", "4"])):
        with pytest.raises(StoreError) as refused:
            refuse_another_game(again, game_of(began), "league3.sqlite", "a league")
        assert str(refused.value) == (
            "league3.sqlite was begun with --players 3, not --players 4: a league keeps its game's options"
        )


def test_a_tune_of_integer_ranges_resumed_with_others_names_them_as_written(tmp_path, capsys):
    """It said 'was run with --params K=0.0:8.0, not K=1.0:8.0': real ranges, where K=0:8 is an
    integer's, and the user's own K=1:8 rewritten."""
    db = tmp_path / "tune.sqlite"
    command = shlex.join([sys.executable, str(BOTS / "tunable.py")])
    argv = ["tune", f"env K=6 {command}", "--params", "K=0:8", *game("cli"), "--iterations", "1"]
    assert main([*argv, "--pairs-per-iteration", "1", "--confirm-pairs", "0", "--db", str(db), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["tune", f"env K=6 {command}", "--params", "K=1:8", "--resume", "--db", str(db), "--quiet"]) == 2
    assert f"{db} was run with --params K=0:8, not K=1:8" in capsys.readouterr().err
