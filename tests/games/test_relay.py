"""Protocol (D), the pre-2018 relay protocol (arena/games/relay.py), against a Pebbles referee
that speaks it (tests/games/pebbles/relay_referee.py)."""

import pickle
import time

import pytest

from arena.games.base import Player, RefereeFailure
from arena.games import make
from arena.games.relay import RelayGame
from referee.errors import UserError
from tests.games.pebbles.harness import RELAY_REFEREE, expected, player


def game(*flags: str, players: int = 2, **options) -> RelayGame:
    options.setdefault("reply_s", 10)
    options.setdefault("first_turn_ms", 3000)  # a bot's start on a busy machine is no test's subject
    options.setdefault("game_s", 60)
    return RelayGame(RELAY_REFEREE + list(flags), players, **options)


@pytest.mark.parametrize("names", [["greedy", "first"], ["first", "greedy"], ["greedy", "first", "worst"]])
def test_games_end_as_the_rules_say(names, leftovers):
    for seed in (3, 8):
        outcome = game(players=len(names)).play(seed, [player(n) for n in names], [0] * len(names))
        _, ranks, turns = expected(seed, names)
        assert (outcome.ranks, outcome.errors, outcome.reason) == (ranks, [None] * len(names), "score")
        assert outcome.scores == [None] * len(names)  # the protocol gives places, not scores
        assert sum(len(times) for times in outcome.times_ms) == outcome.turns == turns
        assert all(0 <= ms < 1000 for times in outcome.times_ms for ms in times)
        assert not leftovers()
    assert outcome.ranks[names.index("greedy")] == 0
    if "worst" in names:
        assert outcome.ranks[names.index("first")] < outcome.ranks[names.index("worst")]


def test_a_seed_replays_its_game_and_a_referee_that_ignores_it_is_seen():
    players = [player("greedy"), player("first")]
    prints = [game().play(seed, players, [0, 0]).fingerprint for seed in (5, 5, 6)]
    assert prints[0] is not None and prints[0] == prints[1] != prints[2]
    ignoring = game("--ignore-seed")
    assert ignoring.play(5, players, [0, 0]).fingerprint != ignoring.play(5, players, [0, 0]).fingerprint


def test_each_turns_stderr_and_time_are_kept():
    outcome = game().play(4, [player("chatty"), player("first")], [0, 0])
    turns = len(outcome.times_ms[0])
    assert turns >= 4
    assert outcome.stderr[0] == [f"turn {n}\n" for n in range(1, turns + 1)]


@pytest.mark.parametrize(
    "bot, error",
    [(("crash",), "crash"), (("garbage",), "invalid"), (("sleep",), "timeout"), (("crash-after", "2"), "crash")],
)
@pytest.mark.parametrize("seat", [0, 1])
def test_a_bots_failure_is_its_own_loss(bot, error, seat, leftovers):
    players = [player("greedy"), player("first"), player("worst")]
    players[seat] = player("hostile", *bot)
    started = time.monotonic()
    outcome = game(players=3, first_turn_ms=300).play(9, players, [0, 0, 0])
    assert outcome.errors[seat] == error and outcome.errors.count(None) == 2
    assert outcome.ranks[seat] == 2 and f"player {seat}" in outcome.detail and outcome.reason == error
    if error == "invalid":  # the referee reported it and ended the game with its result
        assert outcome.data["reported_errors"][0].startswith(f"###Error {seat} InvalidInput")
    else:  # the protocol cannot tell the referee: the game ends there, the others tied
        assert sorted(outcome.ranks) == [0, 0, 2]
    assert time.monotonic() - started < 10
    assert not leftovers()


def test_a_bot_that_cannot_start_loses():
    nowhere = Player("x", "x", "command", "/nonexistent/bot", "1")
    outcome = game().play(9, [player("greedy"), nowhere], [0, 0])
    assert outcome.errors == [None, "start"] and outcome.ranks == [0, 1]


@pytest.mark.parametrize(
    "flags, message",
    [
        (["--crash-at", "3"], "the referee ended (exited with code 1) where its next command was due"),
        (["--hang-at", "3"], "did not send its next command within 2 s"),
        (["--garbage-at", "2"], "'Hello from the referee!' where a ### command was due"),
        (["--bad-end"], "result '###End 9' does not place each player once"),
        (["--exit-code", "3"], "exited with code 3 after giving its results"),
    ],
)
def test_a_failing_referee_is_a_referee_failure(flags, message, tmp_path, leftovers):
    spawned = tmp_path / "child"
    reply_s = 2 if "--hang-at" in flags else 60
    started = time.monotonic()
    with pytest.raises(RefereeFailure) as failure:
        game(*flags, "--spawn", str(spawned), reply_s=reply_s).play(9, [player("greedy"), player("first")], [0, 0])
    assert message in str(failure.value) and "\n" not in str(failure.value)
    assert time.monotonic() - started < 30  # not the minute it may wait for a line
    if "--crash-at" in flags:
        assert "crash-at" in failure.value.stderr
    assert not leftovers()


def test_a_jar_runs_with_its_java_options():
    args, _ = RelayGame("old/gitc.jar", java_options=["-Xmx512m"]).referee_command()
    assert args == ["java", "-Xmx512m", "-jar", "old/gitc.jar"]


def test_a_game_is_plain_data_made_again_from_its_config():
    made = game(players=3, first_turn_ms=500, turn_ms=60, send_seed=False)
    again = make(pickle.loads(pickle.dumps(made)).config())
    assert again.config() == made.config() and again.seats == 3
    with pytest.raises(UserError, match="2 to 10 players"):
        make({"protocol": "relay", "command": "r.jar", "players": 11})
    with pytest.raises(UserError, match="turn_ms must be positive"):
        RelayGame("r.jar", turn_ms=0)
