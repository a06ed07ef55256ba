"""The `json` game (protocol B, psyleague's and CGArena's play-one-game command), played through
Pebbles' command of that protocol (tests/games/pebbles/json_referee.py)."""

import json

import pytest

from arena.errors import UsageError
from arena.games import json_game
from arena.games.protocols import make
from arena.games.base import RefereeFailure
from arena.games.json_game import JsonGame
from tests.games.pebbles.harness import JSON_REFEREE, ROOT, expected, player

TEMPLATES = {
    "ours": JSON_REFEREE + " --seed {seed} {players}",
    "cgarena": JSON_REFEREE + " --seed {SEED} {PLAYERS}",
    "psyleague": JSON_REFEREE + " --seed %SEED% %ALL_PLAYERS%",
    "numbered": JSON_REFEREE + " --seed={seed} {p1} %P2% {P3}",
}


def game(template=TEMPLATES["ours"], seats=2, **settings) -> JsonGame:
    return JsonGame(template, name="pebbles", seats=seats, cwd=str(ROOT), **settings)


@pytest.mark.parametrize("form", TEMPLATES)
def test_each_placeholder_form_plays_the_rules_with_three_players(form, leftovers):
    bots = ["worst", "greedy", "first"]
    outcome = game(TEMPLATES[form], seats=3).play(17, [player(b) for b in bots], [0, 0, 0])
    scores, ranks, _ = expected(17, bots)
    assert outcome.ranks == ranks
    assert outcome.scores == scores
    assert outcome.errors == [None, None, None]
    assert outcome.times_ms is None
    # psyleague's extra data is kept.
    assert outcome.data["test_data"] == {"seed": 17, "turns": outcome.data["test_data"]["turns"]}
    assert outcome.data["player_data"] == [{"score": s} for s in scores]
    assert not leftovers()


def test_two_players_and_the_same_seed_gives_the_same_fingerprint():
    pebbles = game()
    first = pebbles.play(3, [player("greedy"), player("worst")], [0, 0])
    again = pebbles.play(3, [player("worst"), player("first")], [0, 0])
    assert first.ranks == [0, 1]
    assert first.fingerprint == again.fingerprint == "seed=3"
    assert pebbles.play(4, [player("greedy"), player("worst")], [0, 0]).fingerprint == "seed=4"


def test_a_command_that_ignores_the_seed_gives_different_fingerprints():
    pebbles = game(JSON_REFEREE + " --misbehave ignore-seed --seed {seed} {players}")
    prints = {pebbles.play(3, [player("greedy"), player("worst")], [0, 0]).fingerprint for _ in range(2)}
    assert len(prints) == 2


def test_a_bots_failure_is_its_seats_error():
    outcome = game().play(3, [player("hostile", "garbage"), player("greedy")], [0, 0])
    assert outcome.errors == [json_game.UNTOLD_ERROR, None]
    assert outcome.ranks == [1, 0]
    assert outcome.reason == json_game.UNTOLD_ERROR


def result_of(stdout: str, seats: int = 2):
    return json_game.outcome(json_game.Finished(stdout, 0, "", 0.1), seats)


@pytest.mark.parametrize(
    "stdout, says",
    [
        ("", "printed nothing"),
        ('{"ranks": [0, 1]}', "no 'errors' list"),
        ('{"ranks": [0, 1], "errors": [0]}', "gives 1 errors for 2 players"),
        ('{"ranks": [0, -1], "errors": [0, 0]}', "not whole numbers from 0"),
        ('{"ranks": [0, 1.5], "errors": [0, 0]}', "not whole numbers from 0"),
        ('{"ranks": [0, 1], "errors": [0, "oops"]}', "among its errors"),
        ('{"ranks": [0, 1], "errors": [0, 0], "test_data": [1]}', "'test_data' that is not an object"),
        ('[{"ranks": [0, 1], "errors": [0, 0]}, {"ranks": [0, 1], "errors": [0, 0]}]', "reported 2 games"),
        ('{"ranks": [0, 1], "errors": [0, 0]} trailing', "not JSON"),
        ("[1, 2]", "reported 2 games"),
    ],
)
def test_the_json_is_read_strictly(stdout, says):
    with pytest.raises(RefereeFailure, match=says):
        result_of(stdout)


def test_errors_as_the_tools_write_them_and_a_failed_seat_ranks_last():
    # CGArena's errors are 0/1, psyleague's counts; the arena's own words are kept as they are.
    outcome = result_of('[{"ranks": [0, 1, 1], "errors": [1, true, "timeout"], "attributes": []}]', 3)
    assert outcome.errors == [json_game.UNTOLD_ERROR, json_game.UNTOLD_ERROR, "timeout"]
    outcome = result_of('{"ranks": [0, 1, 2], "errors": [1, 0, false], "scores": [5, 4, 3]}', 3)
    assert outcome.ranks == [2, 0, 1]  # the failed seat ranks below the others, whatever it was given
    assert outcome.scores == [5, 4, 3]
    outcome = result_of('{"ranks": [1, 0, 1], "errors": [0, 0, 0]}', 3)
    assert outcome.ranks == [1, 0, 1]
    assert outcome.scores == [None, None, None]


def test_a_cgarena_seed_attribute_is_the_fingerprint():
    stdout = '{"ranks": [0, 1], "errors": [0, 0], "attributes": [{"name": "seed", "player": null, "turn": null, "value": 9}]}'
    assert result_of(stdout).fingerprint == "seed=9"
    assert result_of('{"ranks": [0, 1], "errors": [0, 0]}').fingerprint is None


def test_placeholders_become_arguments_as_each_tool_passes_them():
    commands = ["./bot a", "./bot b"]
    assert JsonGame("play {players} --seed {SEED}", name="x").arguments(5, commands) == [
        "play",
        "./bot a",
        "./bot b",
        "--seed",
        "5",
    ]
    assert JsonGame("play bots/%ALL_PLAYERS%.exe", name="x").arguments(5, ["p", "q"]) == [
        "play",
        "bots/p.exe",
        "bots/q.exe",
    ]
    assert JsonGame("play --p1={p1} '%P2%' x%SEED%", name="x").arguments(7, commands) == [
        "play",
        "--p1=./bot a",
        "./bot b",
        "x7",
    ]


@pytest.mark.parametrize(
    "command, says",
    [
        ("play {p1}", "place each of its 2 players once"),
        ("play {p1} {p1} {p2}", "place each of its 2 players once"),
        ("play {players} {p2}", "place each of its 2 players once"),
        ("play %DIR%/%ALL_PLAYERS%", "%DIR%"),
        ("play {players} {LANG}", "{LANG}"),
        ("play '{players}", "cannot split"),
        ("", "empty"),
    ],
)
def test_bad_templates_are_the_users_mistake(command, says):
    with pytest.raises(UsageError, match=says):
        JsonGame(command, name="x")


def test_config_makes_the_same_game_again():
    pebbles = game(TEMPLATES["psyleague"], seats=3, timeout_s=30)
    again = make(json.loads(json.dumps(pebbles.config())))
    assert again.config() == pebbles.config()
    assert again.timed_by_referee
    with pytest.raises(UsageError):
        make(pebbles.config() | {"seed_flag": "-s {seed}"})  # a cli game's setting
