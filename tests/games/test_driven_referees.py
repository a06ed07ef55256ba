"""What the games whose referee the arena drives share (arena/games/runner.py: protocols (C), sdk,
and (D), relay), against Pebbles' referees of both (tests/games/pebbles/sdk_referee.py and
relay_referee.py): the seats' processes on our clock, the referee's every wait bounded, nothing left
behind, a game as plain data."""

import pickle
import shlex
import sys
import time

import pytest

from arena.games import runner, sdk
from arena.games.protocols import make
from arena.games.base import Player, RefereeFailure
from tests.games.pebbles.harness import SDK_REFEREE, driven_game, player

PROTOCOLS = ["sdk", "relay"]


def against_greedy(protocol: str, code: str):
    """The outcome of one game (seed 9) of greedy against a bot that is the Python program `code`."""
    bot = Player("bot", "bot", "command", shlex.join([sys.executable, "-c", code]), "1")
    return driven_game(protocol).play(9, [player("greedy"), bot], [0, 0])


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_seed_replays_its_game_and_a_referee_that_ignores_it_is_seen(protocol):
    players = [player("greedy"), player("first")]
    prints = [driven_game(protocol).play(seed, players, [0, 0]).fingerprint for seed in (5, 5, 6)]
    assert prints[0] is not None and prints[0] == prints[1] != prints[2]
    ignoring = driven_game(protocol, "--ignore-seed")
    assert ignoring.play(5, players, [0, 0]).fingerprint != ignoring.play(5, players, [0, 0]).fingerprint


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_each_turns_stderr_and_time_are_kept(protocol):
    outcome = driven_game(protocol).play(4, [player("chatty"), player("first")], [0, 0])
    turns = len(outcome.times_ms[0])
    assert turns >= 4
    assert outcome.stderr[0] == [f"turn {n}\n" for n in range(1, turns + 1)]
    assert outcome.stderr[1] == [""] * len(outcome.times_ms[1])


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_bot_that_cannot_start_loses(protocol):
    nowhere = Player("x", "x", "command", "/nonexistent/bot", "1")
    outcome = driven_game(protocol).play(9, [player("greedy"), nowhere], [0, 0])
    assert outcome.errors == [None, "start"] and outcome.ranks == [0, 1]


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_bot_that_crashes_says_why(protocol):
    # It starts, then ends on its first turn with an exception's message on stderr: the crash's
    # line gives the message, not only its exit status.
    code = "import sys; sys.stderr.write('Traceback (most recent call last):\\n  File x\\n'); sys.exit('boom: no map')"
    outcome = against_greedy(protocol, code)
    assert outcome.errors == [None, "crash"]
    assert outcome.detail == "player 1 crashed on its turn 1: exited with code 1: boom: no map"


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_crash_quotes_only_what_the_bot_said_on_the_turn_it_crashed(protocol):
    # It logs on stderr each turn and, on its second, dies of a signal without a word: its last log
    # line is no reason (it read as "killed by signal SIGKILL: iterations=300").
    code = (
        "import os, signal, sys\n"
        "sys.stdin.readline()\n"
        "for turn in (1, 2):\n"
        "    [sys.stdin.readline() for _ in range(3)]\n"
        "    if turn == 2: os.kill(os.getpid(), signal.SIGKILL)\n"
        "    print('iterations=300', file=sys.stderr, flush=True); print(0, flush=True)\n"
    )
    outcome = against_greedy(protocol, code)
    assert outcome.errors == [None, "crash"]
    assert outcome.detail == "player 1 crashed on its turn 2: killed by signal SIGKILL"


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_an_answer_too_long_for_codingame_is_a_timeout_said_plainly(protocol):
    # Its line ends, but after 10,000 bytes, where CodinGame stops reading: a timeout that no clock
    # measured, so none is shown.
    code = "import time; print('x' * 20000, flush=True); time.sleep(30)"
    outcome = against_greedy(protocol, code)
    assert outcome.errors == [None, "timeout"]
    assert outcome.detail == (
        "player 1 timed out on its turn 1: printed a line of 10,000 bytes or more, where CodinGame stops"
        " reading (a timeout, as on CodinGame)"
    )


def test_a_referees_line_too_long_is_its_failure(monkeypatch):
    monkeypatch.setattr(runner, "REFEREE_LINE_BYTES", 60)  # a view frame's line is longer
    with pytest.raises(RefereeFailure, match=r"the referee printed a line of 60 bytes or more \(in line 2 of 2"):
        driven_game("sdk").play(9, [player("greedy"), player("first")], [0, 0])


@pytest.mark.parametrize(
    "protocol, flags, message",
    [
        ("sdk", ["--crash-at", "3"], "the referee ended (exited with code 1)"),
        ("sdk", ["--hang-at", "3"], "did not send a frame within 2 s"),
        ("sdk", ["--garbage-at", "2"], "'Hello from the referee!' where a frame"),
        ("sdk", ["--bad-frame-at", "2"], "[[SET_PLAYER_SCORE]]"),
        ("sdk", ["--fail-at", "4"], "the referee failed: java.lang.RuntimeException: fail-at"),
        ("sdk", ["--exit-code", "3"], "exited with code 3 after giving its results"),
        ("sdk", ["--sdk", "3"], "ended (exited with code 1) where a frame was due"),  # no game.mode: see below
        ("relay", ["--crash-at", "3"], "the referee ended (exited with code 1) where its next command was due"),
        ("relay", ["--hang-at", "3"], "did not send its next command within 2 s"),
        ("relay", ["--garbage-at", "2"], "'Hello from the referee!' where a ### command was due"),
        ("relay", ["--bad-end"], "result '###End 9' does not place each player once"),
        ("relay", ["--exit-code", "3"], "exited with code 3 after giving its results"),
    ],
)
def test_a_failing_referee_is_a_referee_failure(protocol, flags, message, tmp_path, leftovers, monkeypatch):
    if flags == ["--sdk", "3"]:  # a referee run without -Dgame.mode=multi stops, as an SDK 2.x+ one does
        monkeypatch.setattr(sdk.SdkGame, "referee_command", lambda self: (SDK_REFEREE + flags, {}))
    # Its child (in a session of its own) holds the referee's output open after it ends.
    spawned = tmp_path / "child"
    reply_s = 2 if "--hang-at" in flags else 60
    game = driven_game(protocol, *flags, "--spawn", str(spawned), reply_s=reply_s)
    started = time.monotonic()
    with pytest.raises(RefereeFailure) as failure:
        game.play(9, [player("greedy"), player("first")], [0, 0])
    assert message in str(failure.value) and "\n" not in str(failure.value)
    assert time.monotonic() - started < 30  # not the minute it may wait for a line
    if "--fail-at" in flags:
        assert "Referee.java:42" in failure.value.stderr
    if "--crash-at" in flags:
        assert "crash-at" in failure.value.stderr
    assert not leftovers()  # the referee's own child too


@pytest.mark.parametrize(
    "protocol, flags, options",
    [
        ("sdk", ["--sdk", "3"], {"league": 2, "first_turn_ms": 500, "soft_timeouts": True, "parameters": {"a": "1"}}),
        ("relay", [], {"first_turn_ms": 500, "turn_ms": 60, "send_seed": False}),
    ],
)
def test_a_game_is_plain_data_made_again_from_its_config(protocol, flags, options):
    made = driven_game(protocol, *flags, players=3, **options)
    again = make(pickle.loads(pickle.dumps(made)).config())
    assert again.config() == made.config() and again.seats == 3
