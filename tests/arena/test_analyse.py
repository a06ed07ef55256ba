"""`arena analyse --db RUN --player NAME`: a player's games of a run analysed, with its mistakes."""

import functools
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from arena.cli import main
from arena.play.store import Store

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def run(play_match):
    return play_match("random", "greedy", pairs=1, seed=4)


def test_a_players_games_are_analysed_with_a_summary_of_its_mistakes(run, tmp_path, capsys):
    out = tmp_path / "analysed"
    assert (
        main(
            [
                "analyse",
                "--db",
                str(run),
                "--player",
                "random",
                "--games",
                "all",
                "--iterations",
                "200",
                "--workers",
                "1",
                "--quiet",
                "-o",
                str(out),
            ]
        )
        == 0
    )
    printed = capsys.readouterr().out
    games = Store.open(run).games()
    for game in games:
        replay = json.loads((out / f"game-{game['id']}.json").read_text())
        assert replay["moves"] == game["data"]["moves"] and replay["analysis"]["iterations"] == 200
        assert len(replay["analysis"]["frames"]) == len(game["data"]["moves"].split()) + 1
        assert (out / f"game-{game['id']}.html").is_file()
    assert "random: " in printed and "mistakes" in printed and "opening (the game's first third)" in printed


def test_mistakes_of_a_run_are_refused_with_one_line(run, capsys):
    assert main(["analyse", "--db", str(run), "--player", "nobody"]) == 2
    assert capsys.readouterr().err.strip() == "arena analyse: --player: give one of the run's players: random, greedy"
    assert main(["analyse", "--db", str(run)]) == 2  # which player?
    assert main(["analyse"]) == 2
    assert "give replay files" in capsys.readouterr().err


def test_the_summary_counts_a_players_mistakes_by_phase_and_the_wins_thrown_away(conformance_games, recorded_replay):
    from arena.analyse import summary
    from referee.volcanoes import analysis

    recorded = next(g for g in conformance_games if g["winner"] == "orange" and len(g["moves"].split()) >= 30)
    replay = recorded_replay(recorded, {"blue": "me", "orange": "you"})
    searched = [p.frame for p in analysis.positions(replay)]
    blue_after = [f for f in searched if replay["turn_log"][f - 1]["actor"] == "blue" and f - 1 in searched]
    early, late = blue_after[1], blue_after[-1]  # blue at 95%, falls to 30% after early, to 5% after late
    values = {f: 0.95 if f < early else 0.3 if f < late else 0.05 for f in searched}
    answers = {f: (-1, v, v) for f, v in values.items()}
    text = summary([("g", analysis.annotate(replay, answers, "mcts", 10))], "me")
    assert "me: 2 mistakes" in text and "1 of them threw a winning position away" in text
    assert "opening (the game's first third): 1" in text and "end (its last third): 1" in text


def _analyse_losses(run, out, *more):
    return main(
        ["analyse", "--db", str(run), "--player", "random", "--iterations", "20", "--workers", "1"]
        + [
            "--quiet",
            "-o",
            str(out),
            *more,
        ]
    )


def test_a_file_of_the_users_in_the_output_folder_is_not_replaced(run, tmp_path, capsys):
    assert _analyse_losses(run, tmp_path, "--limit", "1") == 0
    assert _analyse_losses(run, tmp_path, "--limit", "1") == 0  # an earlier analysis of the game: replaced
    capsys.readouterr()
    (notes,) = tmp_path.glob("game-*.json")
    notes.write_text("my notes, keep me\n")
    assert _analyse_losses(run, tmp_path) == 2
    assert notes.read_text() == "my notes, keep me\n"
    assert capsys.readouterr().err.strip() == (
        f"arena analyse: {notes} holds something else than this game's replay: it will not write over it; "
        "name another output"
    )


@pytest.fixture
def replay_file(tmp_path, conformance_games, recorded_replay):
    """A short game's replay, in game.json."""
    recorded = min(conformance_games, key=lambda g: len(g["moves"]))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(recorded_replay(recorded, {"blue": "me", "orange": "you"})))
    return path


def test_a_replay_file_analysed_into_a_folder_is_left_as_it_was(replay_file, tmp_path):
    given = replay_file.read_bytes()
    out = tmp_path / "analysed"
    assert main(["analyse", str(replay_file), "-o", str(out), "--iterations", "20", "--workers", "1", "--quiet"]) == 0
    assert replay_file.read_bytes() == given and not replay_file.with_suffix(".html").exists()
    assert json.loads((out / "game.json").read_text())["analysis"]["iterations"] == 20
    assert (out / "game.html").is_file()


@pytest.mark.parametrize(
    "options, said",
    [
        (["--player", "me"], "--player chooses games of a run: give it with --db RUN, not with replay files"),
        (["--games", "all"], "--games chooses games of a run: give it with --db RUN, not with replay files"),
        (["--limit", "1"], "--limit chooses games of a run: give it with --db RUN, not with replay files"),
        (["-o", "."], "is an input of this command: it will not write over it; name another output"),
    ],
)
def test_options_that_do_not_apply_to_a_replay_file_are_refused_in_one_line(replay_file, options, said, capsys):
    given = replay_file.read_bytes()
    options = [str(replay_file.parent) if option == "." else option for option in options]
    assert main(["analyse", str(replay_file), *options, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1
    assert replay_file.read_bytes() == given


def test_a_game_played_to_a_lower_turn_limit_is_refused_in_one_line(
    tmp_path, recorded_replay, conformance_games, capsys
):
    """Its positions near the limit would be valued as if the game went on to turn 200: a move three
    turns before a forced draw counted as a mistake that lost its player everything."""
    from referee.volcanoes.replay import replay_from_moves

    moves = max(conformance_games, key=lambda g: len(g["moves"]))["moves"].split()[:10]
    path = tmp_path / "mt.json"
    path.write_text(json.dumps(replay_from_moves(moves, seed=3, winner="draw", reason="max-turns", turns=10)))
    assert main(["analyse", str(path), "--iterations", "20", "--workers", "1", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"arena analyse: {path}: it ended at a limit of 10 turns (--max-turns)")
    assert err.count("\n") == 1 and "analysis" not in json.loads(path.read_text())


def test_a_replay_in_a_read_only_folder_is_refused_before_the_search(replay_file):
    """It was found out once every position had been searched, hours later at the default budget:
    the run here, at a budget no test waits for, would time out if it searched."""
    command = [sys.executable, "-m", "arena.cli", "analyse", str(replay_file), "--iterations", "100000000"]
    done = read_only(replay_file.parent, [*command, "--workers", "1", "--quiet"])
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        f"arena analyse: cannot write {replay_file} and its page: its folder {replay_file.parent} is not "
        "writable; give -o FOLDER, a folder you may write in\n"
    )


def read_only(folder: Path, command: list[str]) -> subprocess.CompletedProcess:
    """`command` run with `folder` read-only: by its permissions, or for root (whom they do not stop)
    as a read-only bind mount in a mount namespace of its own."""
    run = functools.partial(subprocess.run, capture_output=True, text=True, timeout=60, cwd=ROOT)
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            return run(command)
        finally:
            folder.chmod(0o755)
    if not shutil.which("unshare"):
        pytest.skip("root, and no unshare to make a read-only folder")
    script = f'mount --bind "{folder}" "{folder}" && mount -o remount,bind,ro "{folder}" && exec "$@"'
    done = run(["unshare", "-m", "sh", "-c", script, "sh", *command])
    if "mount" in done.stderr and "arena" not in done.stderr:
        pytest.skip(f"cannot make a read-only mount here: {done.stderr.strip()}")
    return done


def test_a_lost_game_without_a_move_is_named_not_skipped(tmp_path, capsys):
    """A player that lost only by timing out on its first turn was said to have no lost game."""
    bot = tmp_path / "asleep.py"
    bot.write_text("import sys, time\nsys.stdin.readline()\ntime.sleep(30)\n")  # times out on its first turn
    db = str(tmp_path / "run.sqlite")
    match = ["match", f"asleep={sys.executable} {bot}", "greedy", "--pairs", "1", "--seed", "1", "--workers", "1"]
    assert main([*match, "--first-turn-ms", "200", "--quiet", "--db", db]) == 0
    blue = Store.open(db).games()[0]  # asleep's first game: it was blue, and no move was made
    capsys.readouterr()
    assert main(["analyse", "--db", db, "--player", "asleep", "--iterations", "20", "--workers", "1", "--quiet"]) == 0
    assert capsys.readouterr().out.endswith(
        "\n  1 lost game ended before any move, with nothing to analyse: "
        f"game {blue['id']} (timeout: blue no answer in time)\n"
    )


def test_the_engines_preparation_is_said_first(replay_file, capsys):
    """Compiled for the first time, the engine's kernels took half a minute, in silence."""
    assert main(["analyse", str(replay_file), "--iterations", "20", "--workers", "1"]) == 0
    assert capsys.readouterr().err.startswith("preparing mcts (compiling or loading its kernels)... ready in ")
    assert main(["analyse", str(replay_file), "--iterations", "20", "--workers", "1", "--quiet"]) == 0
    assert capsys.readouterr().err == ""


def test_what_to_analyse_is_asked_for_in_words_that_fit(run, tmp_path, capsys):
    for argv, said in [
        ([], "give replay files, or --db RUN --player LABEL: what to analyse"),
        ([str(run), "--db", str(run)], "give replay files, or --db RUN --player LABEL, not both"),
        ([str(run)], f"{run} is an arena run, not a replay file: give --db {run} --player LABEL"),
    ]:
        assert main(["analyse", *argv]) == 2
        assert capsys.readouterr().err == f"arena analyse: {said}\n"
    other = tmp_path / "pebbles.sqlite"
    game = {"name": "pebbles", "protocol": "sdk", "command": "python -m pebbles_referee"}
    Store.create(other, {"command": "match", "game": game, "seed": 1}, []).close()
    assert main(["analyse", "--db", str(other), "--player", "greedy"]) == 2
    assert capsys.readouterr().err == (
        f"arena analyse: {other} is a run of pebbles (python -m pebbles_referee): arena analyse reads Volcanoes games\n"
    )


def test_two_replays_written_to_one_page_are_refused_before_the_search(replay_file, capsys):
    twin = replay_file.with_suffix(".replay")
    twin.write_bytes(replay_file.read_bytes())
    assert main(["analyse", str(replay_file), str(twin), "--iterations", "20", "--workers", "1", "--quiet"]) == 2
    assert capsys.readouterr().err == (
        f"arena analyse: {replay_file} and {twin} would both be written to {replay_file.with_suffix('.html')}: "
        "analyse them apart\n"
    )
    assert not replay_file.with_suffix(".html").exists()


def test_a_two_turn_games_last_move_is_in_its_end_and_one_mistake_is_one(conformance_games):
    from arena.analyse import summary
    from referee.volcanoes.replay import replay_from_moves

    moves = conformance_games[0]["moves"].split()[:2]  # blue's, then orange's (me)
    replay = replay_from_moves(moves, players={"blue": "you", "orange": "me"}, winner="blue", reason="timeout")
    frames = [{"value": 0.5}, {"value": 0.5, "best": "N01"}, {"value": 1.0, "loss": 0.5}]
    text = summary([("g", {**replay, "analysis": {"engine": "mcts", "iterations": 10, "frames": frames}})], "me")
    assert "me: 1 mistake (moves that" in text and "in 1 game, 1 move\n" in text
    assert "end (its last third): 1" in text
