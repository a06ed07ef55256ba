"""Numbers from external referees that no float holds, and JSON nested past what Python reads: a score
of 400 digits (cli, json, sdk), a time limit of 999999999999 ms (sdk), a result nested 1,500 deep
(json, and a cli referee's log). Each fails the game as the referee's, in one line: no traceback."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from arena.games.base import Player, RefereeFailure
from arena.games.cli import CliGame
from arena.games.json_game import JsonGame
from arena.games.sdk import SdkGame
from tests.reliability.commands import run

SCRIPTS = Path(__file__).parent / "scripts"
HUGE = "9" * 400


def bot(label: str, *args: str) -> Player:
    """A bot answering 0 to each line; given a number of seconds, it waits so long before each answer."""
    command = shlex.join([sys.executable, str(SCRIPTS / "answer_zero.py"), *args])
    return Player(label, command, "command", command, "test")


def printing(text: str) -> str:
    """A referee's command line that prints `text`, whatever it is given."""
    return shlex.join([sys.executable, "-c", f"import sys; sys.stdout.write({text!r})"])


def json_game(text: str) -> JsonGame:
    return JsonGame(name="printer", command=printing(text) + " {p1} {p2}", seats=2)


def sdk_game(mode: str) -> SdkGame:
    return SdkGame([sys.executable, str(SCRIPTS / "sdk_scripted.py"), mode], 2, reply_s=10, first_turn_ms=3000)


def play(game, *args: str):
    return game.play(1, [bot("a", *args), bot("b", *args)], [0, 0])


def test_a_cli_score_of_400_digits_is_the_referees_failure():
    with pytest.raises(RefereeFailure, match="score"):
        play(CliGame(name="printer", command=printing(f"{HUGE}\n0\n"), log=False))


def test_a_json_score_of_400_digits_is_the_referees_failure():
    with pytest.raises(RefereeFailure, match="scores that are not numbers"):
        play(json_game(f'{{"ranks": [0, 1], "errors": [0, 0], "scores": [{HUGE}, 0]}}'))


def test_an_sdk_score_of_400_digits_is_the_referees_failure():
    with pytest.raises(RefereeFailure, match="SCORES"):
        play(sdk_game("huge-score"))


def test_an_sdk_time_limit_of_999999999999_ms_is_the_referees_failure():
    with pytest.raises(RefereeFailure, match="999999999999 ms"):
        play(sdk_game("huge-limit"), "0.5")  # a wait for an answer that is not there yet


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("depth", [1500, 900])
def test_a_json_result_nested_too_deep_is_the_referees_failure(depth):
    with pytest.raises(RefereeFailure, match="nested"):
        play(json_game(f'{{"ranks": [0, 1], "errors": [0, 0], "test_data": {{"x": {nested(depth)}}}}}'))


def test_a_cli_log_nested_too_deep_is_the_referees_failure(tmp_path):
    # A referee writing its -l log (the last argument) nested 1,500 deep, then a good result.
    code = f"import sys; open(sys.argv[-1], 'w').write({json.dumps({'metadata': 0})[:-2]!r} + {nested(1500)!r} + '}}')"
    command = shlex.join([sys.executable, "-c", code + "; print(1); print(0)"])
    with pytest.raises(RefereeFailure, match="nested"):
        play(CliGame(name="logger", command=command))


def test_a_run_on_such_a_referee_says_why_in_one_line(tmp_path):
    toml = tmp_path / "arena.toml"
    referee = printing(f'{{"ranks": [0, 1], "errors": [0, 0], "test_data": {{"x": {nested(1500)}}}}}')
    toml.write_text(f"[games.deep]\nprotocol = 'json'\ncommand = {json.dumps(referee + ' {p1} {p2}')}\n")
    players = [f"{name}={bot(name).target}" for name in ("a", "b")]
    args = ["match", *players, "--game", "deep", "--pairs", "1", "--workers", "1", "--allow-unseeded", "--quiet"]
    done = run("arena.cli", *args, "--db", str(tmp_path / "run.sqlite"), cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith("arena match: ") and "nested more than" in done.stderr
