"""A referee's result that is not one is refused, never stored as if it were: a cli referee printing
three scores for two players (its first taken for a line of its own, `[2, 3]` stored), sdk SCORES that
leave a player out (ranked last, with no error and no word of why) or score one twice (the last line
silently won), a relay `###End` placing a seat '²' (a digit to str.isdigit, not to int: a traceback).
Each fails the game as the referee's."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from arena.games.base import Player, RefereeFailure
from arena.games.cli import CliGame
from arena.games.relay import RelayGame
from arena.games.sdk import SdkGame

SCRIPTS = Path(__file__).parent / "scripts"


def bot(label: str) -> Player:
    command = shlex.join([sys.executable, str(SCRIPTS / "answer_zero.py")])
    return Player(label, command, "command", command, "test")


def play(game):
    return game.play(1, [bot("a"), bot("b")], [0, 0])


def printing(text: str) -> str:
    return shlex.join([sys.executable, "-c", f"import sys; sys.stdout.write({text!r})"])


def sdk_game(mode: str) -> SdkGame:
    return SdkGame([sys.executable, str(SCRIPTS / "sdk_scripted.py"), mode], 2, reply_s=10, first_turn_ms=3000)


@pytest.mark.parametrize("stdout", ["1\n2\n3\n", "1\n2\n3\nseed=4\n"])
def test_three_scores_for_two_players_are_refused(stdout):
    with pytest.raises(RefereeFailure, match="3 scores for 2 players"):
        play(CliGame(name="printer", command=printing(stdout), log=False))


def test_a_line_of_the_referees_own_before_the_scores_is_still_kept():
    outcome = play(CliGame(name="printer", command=printing("turn 1: a moved\n2\n3\nseed=4\n"), log=False))
    assert outcome.scores == [2, 3] and outcome.data["referee_stdout"] == "turn 1: a moved"


def test_sdk_scores_that_leave_a_player_out_are_refused():
    with pytest.raises(RefereeFailure, match="no score for player 1"):
        play(sdk_game("omit-player"))


def test_sdk_scores_without_their_players_say_what_a_score_line_is():
    with pytest.raises(RefereeFailure, match=r"no score for player 0 \(a line such as '0' is no `index score`\)"):
        play(sdk_game("bare"))


def test_sdk_scores_that_score_a_player_twice_are_refused():
    with pytest.raises(RefereeFailure, match="player 0 twice"):
        play(sdk_game("duplicate"))


def test_sdk_scores_of_every_player_once_are_the_result():
    outcome = play(sdk_game("fair"))
    assert outcome.scores == [0, 10] and outcome.ranks == [1, 0] and outcome.errors == [None, None]


def test_a_relay_result_placing_a_seat_by_a_digit_of_another_script_is_refused():
    referee = shlex.join([sys.executable, "-c", "input(); input(); print('###End 0 1\u00b2', flush=True)"])
    with pytest.raises(RefereeFailure, match="does not place each player once"):
        play(RelayGame(command=referee))
