"""Protocol (D), the pre-2018 relay protocol (arena/games/relay.py), against a Pebbles referee
that speaks it (tests/games/pebbles/relay_referee.py)."""

import functools
import time

import pytest

from arena.games.protocols import make
from arena.games.relay import RelayGame
from referee.platform.errors import UserError
from tests.games.pebbles.harness import FIRST_TURN_MS, driven_game, expected, player

game = functools.partial(driven_game, "relay")


@pytest.mark.parametrize("names", [["greedy", "first"], ["first", "greedy"], ["greedy", "first", "worst"]])
def test_games_end_as_the_rules_say(names, leftovers):
    for seed in (3, 8):
        outcome = game(players=len(names)).play(seed, [player(n) for n in names], [0] * len(names))
        _, ranks, turns = expected(seed, names)
        assert (outcome.ranks, outcome.errors, outcome.reason) == (ranks, [None] * len(names), "score")
        assert outcome.scores == [None] * len(names)  # the protocol gives places, not scores
        assert sum(len(times) for times in outcome.times_ms) == outcome.turns == turns
        assert all(0 <= ms < FIRST_TURN_MS for times in outcome.times_ms for ms in times)  # (ms, in the limit)
        assert not leftovers()
    assert outcome.ranks[names.index("greedy")] == 0
    if "worst" in names:
        assert outcome.ranks[names.index("first")] < outcome.ranks[names.index("worst")]


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


def test_a_jar_runs_with_its_java_options():
    args, _ = RelayGame("old/gitc.jar", java_options=["-Xmx512m"]).referee_command()
    assert args == ["java", "-Xmx512m", "-jar", "old/gitc.jar"]


def test_bad_settings_are_the_users_mistake():
    with pytest.raises(UserError, match="2 to 10 players"):
        make({"protocol": "relay", "command": "r.jar", "players": 11})
    with pytest.raises(UserError, match="turn_ms = 0: input should be greater than 0"):
        make({"protocol": "relay", "command": "r.jar", "turn_ms": 0})
